import { AppError } from "@billing/errors";
import type { AppliedCoupon, AppliedCouponWithCoupon } from "../../domain/applied-coupon";
import type { CatalogDeps } from "../deps";

/** Each applied coupon with its coupon (deleted ones included) and the live codes of the coupon's metrics. */
export async function withCoupons(
  deps: CatalogDeps,
  organizationId: string,
  applied: AppliedCoupon[],
): Promise<AppliedCouponWithCoupon[]> {
  const coupons = await deps.appliedCoupons.coupons.byIds(organizationId, [
    ...new Set(applied.map((a) => a.coupon_id)),
  ]);
  const couponOf = new Map(coupons.map((c) => [c.id, c]));
  const metrics = await deps.billableMetrics.findLiveByIds(organizationId, [
    ...new Set(coupons.flatMap((c) => c.billable_metric_ids)),
  ]);
  const codeOf = new Map(metrics.map((m) => [m.id, m.code]));
  return applied.map((a) => {
    const coupon = couponOf.get(a.coupon_id);
    if (!coupon) throw AppError.internal(`coupon ${a.coupon_id} of applied coupon ${a.id} is missing`);
    return {
      applied: a,
      coupon,
      billableMetricCodes: coupon.billable_metric_ids.flatMap((id) => codeOf.get(id) ?? []),
    };
  });
}
