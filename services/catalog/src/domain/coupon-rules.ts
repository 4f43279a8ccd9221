import { isCurrencyCode } from "@billing/codes";
import { parseDecimal } from "@billing/pricing";
import { Violations } from "./patch";
import { COUPON_EXPIRATIONS, COUPON_FREQUENCIES, COUPON_TYPES, type Coupon } from "./types";

export const COUPON_PATCHABLE = [
  "name",
  "code",
  "description",
  "coupon_type",
  "amount_cents",
  "amount_currency",
  "percentage_rate",
  "reusable",
  "frequency",
  "frequency_duration",
  "expiration",
  "expiration_at",
  "plan_codes",
  "billable_metric_ids",
] as const;

/** Keeps only the values the coupon's type, frequency and expiration use, and derives the limitation flags. */
export function normalizeCoupon(coupon: Coupon): Coupon {
  const fixed = coupon.coupon_type === "fixed_amount";
  const percentage = coupon.coupon_type === "percentage";
  return {
    ...coupon,
    amount_cents: percentage ? null : coupon.amount_cents,
    amount_currency: percentage ? null : coupon.amount_currency,
    percentage_rate: fixed ? null : coupon.percentage_rate,
    frequency_duration: coupon.frequency === "recurring" ? coupon.frequency_duration : null,
    expiration_at: coupon.expiration === "time_limit" ? coupon.expiration_at : null,
    plan_codes: [...new Set(coupon.plan_codes)],
    billable_metric_ids: [...new Set(coupon.billable_metric_ids)],
    limited_plans: coupon.plan_codes.length > 0,
    limited_billable_metrics: coupon.billable_metric_ids.length > 0,
  };
}

/**
 * The invariants of every stored coupon. A new or changed expiration date must lie in the future
 * (`previous` is the stored coupon on an update). Returns Lago's error_details, or null.
 */
export function couponViolations(coupon: Coupon, now: Date, previous?: Coupon): Record<string, string[]> | null {
  const v = new Violations();
  v.mandatory("name", coupon.name);
  v.mandatory("code", coupon.code);
  if (v.mandatory("coupon_type", coupon.coupon_type)) v.oneOf("coupon_type", coupon.coupon_type, COUPON_TYPES);
  if (v.mandatory("frequency", coupon.frequency)) v.oneOf("frequency", coupon.frequency, COUPON_FREQUENCIES);
  if (v.mandatory("expiration", coupon.expiration)) v.oneOf("expiration", coupon.expiration, COUPON_EXPIRATIONS);
  if (coupon.reusable === null || coupon.reusable === undefined) v.add("reusable", "value_is_mandatory");

  if (coupon.coupon_type === "fixed_amount") {
    if (v.mandatory("amount_cents", coupon.amount_cents)) {
      if (!Number.isSafeInteger(coupon.amount_cents)) v.add("amount_cents", "value_is_invalid");
      else if (coupon.amount_cents! <= 0) v.add("amount_cents", "value_is_out_of_range");
    }
    if (v.mandatory("amount_currency", coupon.amount_currency) && !isCurrencyCode(coupon.amount_currency!))
      v.add("amount_currency", "value_is_invalid");
  }
  if (coupon.coupon_type === "percentage" && v.mandatory("percentage_rate", coupon.percentage_rate)) {
    const rate = parseDecimal(coupon.percentage_rate);
    if (!rate) v.add("percentage_rate", "value_is_invalid");
    else if (rate.lte(0) || rate.gt(100)) v.add("percentage_rate", "value_is_out_of_range");
  }
  if (coupon.frequency === "recurring" && v.mandatory("frequency_duration", coupon.frequency_duration)) {
    if (!Number.isInteger(coupon.frequency_duration) || coupon.frequency_duration! <= 0)
      v.add("frequency_duration", "value_is_out_of_range");
  }
  if (coupon.expiration === "time_limit" && v.mandatory("expiration_at", coupon.expiration_at)) {
    const changed = !previous || previous.expiration_at?.getTime() !== coupon.expiration_at!.getTime();
    if (Number.isNaN(coupon.expiration_at!.getTime())) v.add("expiration_at", "invalid_date");
    else if (changed && coupon.expiration_at!.getTime() <= now.getTime()) v.add("expiration_at", "invalid_date");
  }
  return v.result();
}
