import type { AppliedCoupon } from "./applied-coupon";

/** The state of an applied coupon after an invoice took `amountCents` from it. */
export interface Consumption {
  amount_cents_remaining: number | null;
  frequency_duration_remaining: number | null;
  terminated: boolean;
}

/** Why a credit cannot be taken, or null when it can. */
export function consumptionRefusal(
  applied: AppliedCoupon,
  couponType: string,
  credit: { amount_cents: number; amount_currency: string },
): string | null {
  if (applied.status !== "active") return "applied_coupon_not_active";
  if (!Number.isSafeInteger(credit.amount_cents) || credit.amount_cents < 0) return "invalid_amount";
  if (
    couponType === "fixed_amount" &&
    applied.amount_currency?.toUpperCase() !== credit.amount_currency.toUpperCase()
  ) {
    return "currencies_does_not_match";
  }
  if (applied.amount_cents_remaining !== null && credit.amount_cents > applied.amount_cents_remaining)
    return "amount_exceeds_remaining";
  return null;
}

/**
 * Lago's rules: a recurring coupon loses one period; a fixed amount used once loses the credit.
 * A coupon used once ends after this invoice when it is a percentage or nothing is left; a
 * recurring one when no period is left; a forever one never.
 */
export function consume(applied: AppliedCoupon, couponType: string, amountCents: number): Consumption {
  const remaining = applied.amount_cents_remaining === null ? null : applied.amount_cents_remaining - amountCents;
  const recurring = applied.frequency === "recurring";
  const periods = recurring
    ? Math.max(0, (applied.frequency_duration_remaining ?? 0) - 1)
    : applied.frequency_duration_remaining;
  let terminated = false;
  if (applied.frequency === "once") terminated = couponType === "percentage" || remaining === null || remaining <= 0;
  if (recurring) terminated = (periods ?? 0) <= 0;
  return { amount_cents_remaining: remaining, frequency_duration_remaining: periods, terminated };
}

/**
 * The state of an applied coupon after a voided invoice gave back the credit it took (Lago's
 * AppliedCoupons::RecreditService; a credit of a voided invoice no longer counts): a fixed amount
 * gets the credit back, a recurring coupon one period, and a coupon that ended by being used is
 * active again unless it is a forever one or its coupon was terminated.
 */
export function recredit(
  applied: AppliedCoupon,
  credit: { amount_cents: number },
  couponTerminated: boolean,
): { amount_cents_remaining: number | null; frequency_duration_remaining: number | null; reactivated: boolean } {
  const amountRemaining =
    applied.amount_cents_remaining === null ? null : applied.amount_cents_remaining + credit.amount_cents;
  const periods =
    applied.frequency === "recurring"
      ? (applied.frequency_duration_remaining ?? 0) + 1
      : applied.frequency_duration_remaining;
  const reactivated = applied.status === "terminated" && applied.frequency !== "forever" && !couponTerminated;
  return { amount_cents_remaining: amountRemaining, frequency_duration_remaining: periods, reactivated };
}
