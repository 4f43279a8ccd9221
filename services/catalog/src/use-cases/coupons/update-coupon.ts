import type { CatalogDeps } from "../deps";
import { changeRecord } from "../write";
import { withMetricCodes, type CouponWithMetrics } from "./coupon-metrics";
import { changedCoupon, type CouponChange } from "./create-coupon";

/** PUT /coupons/{code}: only the fields sent change; applies_to lists, when sent, replace the current ones. */
export async function updateCoupon(deps: CatalogDeps, organizationId: string, code: string, change: CouponChange): Promise<CouponWithMetrics> {
  const { next } = await changeRecord(deps.coupons, deps.clock, { organizationId, code, resource: "coupon" }, (current, now) =>
    changedCoupon(deps, current, change, now, current),
  );
  return (await withMetricCodes(deps, organizationId, [next]))[0]!;
}
