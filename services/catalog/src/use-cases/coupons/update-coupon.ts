import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { withMetricCodes, type CouponWithMetrics } from "./coupon-metric-refs";
import { changedCoupon, type CouponChange } from "./coupon-change";

/** What Lago still changes on a coupon that has been applied (the rest, limitations included, is kept). */
const CHANGEABLE_ONCE_APPLIED = ["name", "description", "expiration", "expiration_at"] as const;

function onceApplied(change: CouponChange): CouponChange {
  const patch: CouponChange["patch"] = {};
  for (const field of CHANGEABLE_ONCE_APPLIED)
    if (field in change.patch) (patch as Record<string, unknown>)[field] = change.patch[field];
  return { patch };
}

/**
 * PUT /coupons/{code}: only the fields sent change; applies_to lists, when sent, replace the current
 * ones. Once the coupon has been applied, only its name, description and expiration change.
 */
export async function updateCoupon(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  change: CouponChange,
): Promise<CouponWithMetrics> {
  const { next } = await changeRecord(
    deps.coupons,
    deps.clock,
    { organizationId, code, resource: "coupon" },
    async (current, now) => {
      const applied = await deps.appliedCoupons.anyOfCoupon(organizationId, current.id);
      return changedCoupon(deps, current, applied ? onceApplied(change) : change, now, current);
    },
  );
  return (await withMetricCodes(deps, organizationId, [next]))[0]!;
}
