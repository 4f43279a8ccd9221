import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import { couponViolations, COUPON_PATCHABLE, normalizeCoupon } from "../../domain/coupon-rules";
import { decimalString } from "@billing/pricing";
import { applyPatch, type Patch } from "../../domain/patch";
import type { Coupon } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { insertRecord, refuseIfInvalid } from "../catalog-record-writes";
import { billableMetricIdsOf, withMetricCodes, type CouponWithMetrics } from "./coupon-metric-refs";
import { refuseUnknownPlans } from "./refuse-unknown-plans";

export interface CouponChange {
  patch: Patch<Coupon>;
  /** applies_to.billable_metric_codes, when sent (replacing the current ones). */
  billableMetricCodes?: string[];
}

/**
 * Applies a change to a coupon: field errors (422), then unknown plans and unknown metrics (404),
 * then Lago's rule that a coupon is limited to plans or to metrics, not both (405).
 * Plans are kept by code (checked when sent), metrics by id.
 */
export async function changedCoupon(deps: CatalogDeps, base: Coupon, change: CouponChange, now: Date, previous?: Coupon): Promise<Coupon> {
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

/** POST /coupons. */
export async function createCoupon(deps: CatalogDeps, organizationId: string, change: CouponChange): Promise<CouponWithMetrics> {
  const now = deps.clock.now();
  const blank: Coupon = {
    id: randomUUID(), organization_id: organizationId, code: "", name: "", description: null, coupon_type: "",
    amount_cents: null, amount_currency: null, percentage_rate: null, reusable: true, frequency: "", frequency_duration: null,
    expiration: "", expiration_at: null, plan_codes: [], billable_metric_ids: [], limited_plans: false,
    limited_billable_metrics: false, status: "active", terminated_at: null, created_at: now, updated_at: now, deleted_at: null,
  };
  const coupon = await changedCoupon(deps, blank, change, now);
  await insertRecord(deps.coupons, coupon);
  return (await withMetricCodes(deps, organizationId, [coupon]))[0]!;
}
