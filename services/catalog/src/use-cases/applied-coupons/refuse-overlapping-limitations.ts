import { AppError } from "@billing/errors";
import { limitationsOverlap } from "../../domain/applied-coupon-overlap";
import type { Coupon } from "../../domain/types";
import type { CatalogDeps } from "../deps";

/**
 * 405 plan_overlapping when a coupon limited to plans or metrics would overlap a limitation of
 * one of the customer's active applied coupons (Lago checks this before reusability).
 */
export async function refuseOverlappingLimitations(
  deps: CatalogDeps,
  organizationId: string,
  coupon: Coupon,
  customerId: string,
): Promise<void> {
  if (coupon.plan_codes.length === 0 && coupon.billable_metric_ids.length === 0) return;
  const active = await deps.appliedCoupons.activeOfCustomer(organizationId, customerId);
  if (active.length === 0) return;
  const coupons = await deps.appliedCoupons.coupons.byIds(organizationId, [...new Set(active.map((a) => a.coupon_id))]);
  const targets = coupons
    .filter((c) => !c.deleted_at)
    .map((c) => ({ planCodes: c.plan_codes, metricIds: c.billable_metric_ids }));
  const planCodes = [...new Set([...coupon.plan_codes, ...targets.flatMap((t) => t.planCodes)])];
  const plans = await deps.plans.findLiveByCodes(organizationId, planCodes);
  const chargedMetrics = new Map(plans.map((p) => [p.code, p.charges.map((c) => c.billable_metric_id)]));
  const candidate = { planCodes: coupon.plan_codes, metricIds: coupon.billable_metric_ids };
  if (limitationsOverlap(candidate, targets, chargedMetrics)) throw new AppError("not_allowed", "plan_overlapping");
}
