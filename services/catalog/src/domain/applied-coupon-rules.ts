import { isCurrencyCode } from "@billing/codes";
import { decimalString, parseDecimal } from "@billing/pricing";
import type { AppliedCouponTerms, CouponSummary } from "./applied-coupon";
import { Violations } from "./patch";
import { COUPON_FREQUENCIES, type Coupon } from "./types";

/** The overrides a client may send; null or absent keeps the coupon's value (Lago's `param || coupon.value`). */
export type TermOverrides = { [K in keyof AppliedCouponTerms]?: AppliedCouponTerms[K] | null };

export function appliedCouponTerms(coupon: Coupon, overrides: TermOverrides): AppliedCouponTerms {
  const pick = <K extends keyof AppliedCouponTerms>(key: K): AppliedCouponTerms[K] => overrides[key] ?? coupon[key];
  const rate = pick("percentage_rate");
  const rateValue = rate === null ? null : parseDecimal(rate);
  return {
    amount_cents: pick("amount_cents"),
    amount_currency: pick("amount_currency"),
    // Lago shows the rate as a BigDecimal ("10.0")
    percentage_rate: rateValue ? decimalString(rateValue) : rate,
    frequency: pick("frequency"),
    frequency_duration: pick("frequency_duration"),
  };
}

/** Lago's validations of an applied coupon. Returns error_details, or null. */
export function appliedCouponViolations(terms: AppliedCouponTerms): Record<string, string[]> | null {
  const v = new Violations();
  if (terms.amount_cents !== null) {
    if (!Number.isSafeInteger(terms.amount_cents)) v.add("amount_cents", "value_is_invalid");
    else if (terms.amount_cents < 0) v.add("amount_cents", "value_is_out_of_range");
  }
  if (terms.amount_currency !== null && !isCurrencyCode(terms.amount_currency))
    v.add("amount_currency", "value_is_invalid");
  if (terms.percentage_rate !== null) {
    const rate = parseDecimal(terms.percentage_rate);
    if (!rate) v.add("percentage_rate", "value_is_invalid");
    else if (rate.lte(0) || rate.gt(100)) v.add("percentage_rate", "value_is_out_of_range");
  }
  if (v.mandatory("frequency", terms.frequency)) v.oneOf("frequency", terms.frequency, COUPON_FREQUENCIES);
  if (terms.frequency === "recurring" && v.mandatory("frequency_duration", terms.frequency_duration)) {
    if (!Number.isInteger(terms.frequency_duration) || terms.frequency_duration! <= 0)
      v.add("frequency_duration", "value_is_out_of_range");
  }
  return v.result();
}

/** A coupon can be applied while it is active, not deleted and not past its expiration date. */
export function isCouponApplicable(coupon: Coupon, now: Date): boolean {
  if (coupon.status !== "active" || coupon.deleted_at) return false;
  return !coupon.expiration_at || coupon.expiration_at.getTime() > now.getTime();
}

/** What is left to consume when the coupon is applied: an amount for a fixed amount used once, periods for any frequency. */
export function initialRemainders(terms: AppliedCouponTerms, couponType: string) {
  const onceFixed = terms.frequency === "once" && couponType === "fixed_amount";
  return {
    amount_cents_remaining: onceFixed ? terms.amount_cents : null,
    frequency_duration_remaining: terms.frequency_duration,
  };
}

/** One applied coupon per customer for a non-reusable coupon; any number otherwise. */
export function reuseKeyOf(
  coupon: Pick<CouponSummary, "id" | "reusable">,
  customerId: string,
  appliedCouponId: string,
): string {
  return coupon.reusable ? appliedCouponId : `${coupon.id}/${customerId}`;
}
