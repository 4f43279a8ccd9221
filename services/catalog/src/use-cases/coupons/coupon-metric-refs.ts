import type { Coupon } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { liveIdsOf } from "../catalog-record-refs";

export interface CouponWithMetrics {
  coupon: Coupon;
  /** Codes of the live billable metrics the coupon is limited to. */
  billableMetricCodes: string[];
}

/** The ids of the organization's live metrics of these codes; an unknown code → 404 billable_metric_not_found. */
export function billableMetricIdsOf(deps: CatalogDeps, organizationId: string, codes: string[]): Promise<string[]> {
  return liveIdsOf(deps.billableMetrics, organizationId, codes, "billable_metric");
}

/** Each coupon with the current codes of its metrics, one query for all of them. */
export async function withMetricCodes(
  deps: CatalogDeps,
  organizationId: string,
  coupons: Coupon[],
): Promise<CouponWithMetrics[]> {
  const metrics = await deps.billableMetrics.findLiveByIds(organizationId, [
    ...new Set(coupons.flatMap((c) => c.billable_metric_ids)),
  ]);
  const codeOf = new Map(metrics.map((m) => [m.id, m.code]));
  return coupons.map((coupon) => ({
    coupon,
    billableMetricCodes: coupon.billable_metric_ids.flatMap((id) => codeOf.get(id) ?? []),
  }));
}
