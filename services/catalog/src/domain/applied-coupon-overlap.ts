/** What a coupon is limited to: plans (by code) or billable metrics (by id). */
export interface CouponTargets {
  planCodes: readonly string[];
  metricIds: readonly string[];
}

/**
 * Lago's plan_overlapping rule: a limited coupon cannot be applied while an active applied coupon
 * of the customer targets the same plan, the same metric, a plan charging one of its metrics, or a
 * metric charged by one of its plans. `chargedMetrics` gives the metric ids charged by each plan
 * code the coupons name. An unlimited coupon never overlaps.
 */
export function limitationsOverlap(
  candidate: CouponTargets,
  active: readonly CouponTargets[],
  chargedMetrics: ReadonlyMap<string, readonly string[]>,
): boolean {
  if (candidate.planCodes.length === 0 && candidate.metricIds.length === 0) return false;
  const plans = new Set(candidate.planCodes);
  const metrics = new Set(candidate.metricIds);
  const metricsOfCandidatePlans = new Set(candidate.planCodes.flatMap((code) => chargedMetrics.get(code) ?? []));
  const chargesCandidateMetric = (planCode: string) =>
    (chargedMetrics.get(planCode) ?? []).some((id) => metrics.has(id));
  return active.some(
    (other) =>
      other.planCodes.some((code) => plans.has(code) || chargesCandidateMetric(code)) ||
      other.metricIds.some((id) => metrics.has(id) || metricsOfCandidatePlans.has(id)),
  );
}
