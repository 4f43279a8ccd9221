import { AppError } from "@billing/errors";
import { decimalString } from "@billing/pricing";
import { couponViolations, COUPON_PATCHABLE, normalizeCoupon } from "../../domain/coupon-rules";
import { applyPatch, type Patch } from "../../domain/patch";
import type { Coupon } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { billableMetricIdsOf } from "./coupon-metric-refs";
import { refuseUnknownPlans } from "./refuse-unknown-plans";

/** A coupon's fields as sent, and the metrics it is limited to. */
export interface CouponChange {
  patch: Patch<Coupon>;
  /** applies_to.billable_metric_codes, when sent (replacing the current ones). */
  billableMetricCodes?: string[];
}

/**
 * Applies a change to a coupon: field errors (422), then unknown plans and unknown metrics (404),
 * then Lago's rule that a coupon is limited to plans or to metrics, not both (405).
 * Plans are kept by code (checked when sent), metrics by id. Nothing is stored.
 */
export async function changedCoupon(
  deps: CatalogDeps,
  base: Coupon,
  change: CouponChange,
  now: Date,
  previous?: Coupon,
): Promise<Coupon> {
  const next = normalizeCoupon(applyPatch(base, change.patch, COUPON_PATCHABLE));
  refuseIfInvalid(couponViolations(next, now, previous));
  // Lago shows BigDecimals as "10.0"
  if (next.percentage_rate !== null) next.percentage_rate = decimalString(next.percentage_rate.trim());
  if (change.patch.plan_codes) await refuseUnknownPlans(deps, base.organization_id, change.patch.plan_codes);
  if (change.billableMetricCodes !== undefined) {
    next.billable_metric_ids = await billableMetricIdsOf(deps, base.organization_id, change.billableMetricCodes);
  }
  const limited = normalizeCoupon(next);
  if (limited.limited_plans && limited.limited_billable_metrics) {
    throw new AppError("not_allowed", "only_one_limitation_type_per_coupon_allowed");
  }
  return limited;
}
