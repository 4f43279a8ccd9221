import type { CatalogDeps } from "../deps";
import { deleteRecord } from "../catalog-record-writes";
import { withMetricCodes, type CouponWithMetrics } from "./coupon-metric-refs";

/**
 * DELETE /coupons/{code}: Lago terminates the coupon and discards it; its code is free again,
 * and the customers' applied coupons of it are terminated too.
 */
export async function terminateCoupon(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
): Promise<CouponWithMetrics> {
  const { next } = await deleteRecord(
    deps.coupons,
    deps.clock,
    { organizationId, code, resource: "coupon" },
    (current, now) => ({
      ...current,
      status: "terminated" as const,
      terminated_at: current.terminated_at ?? now,
    }),
  );
  await deps.appliedCoupons.terminateAllOfCoupon(organizationId, next.id, next.deleted_at ?? deps.clock.now());
  return (await withMetricCodes(deps, organizationId, [next]))[0]!;
}
