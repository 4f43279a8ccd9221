import type { CatalogMessages as M } from "@billing/contracts";
import { or } from "./presenting";
import type { couponObject, ViewOf } from "./schemas";

/** Lago's CouponObject: percentage_rate is a decimal string. */
export function presentCoupon(c: M.Coupon__Output) {
  return {
    svc_id: c.svc_id,
    name: c.name,
    code: c.code,
    description: or(c.description),
    coupon_type: c.coupon_type,
    amount_cents: or(c.amount_cents),
    amount_currency: or(c.amount_currency),
    reusable: c.reusable,
    limited_plans: c.limited_plans,
    plan_codes: c.plan_codes ?? [],
    limited_billable_metrics: c.limited_billable_metrics,
    billable_metric_codes: c.billable_metric_codes ?? [],
    percentage_rate: or(c.percentage_rate),
    frequency: c.frequency,
    frequency_duration: or(c.frequency_duration),
    expiration: c.expiration,
    expiration_at: or(c.expiration_at),
    created_at: c.created_at,
    terminated_at: or(c.terminated_at),
  } satisfies ViewOf<typeof couponObject>;
}
