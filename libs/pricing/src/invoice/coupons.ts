import { Decimal, ZERO, minDecimal, toDecimal } from "../decimal";
import { fdiv, fromFloat } from "../lago-float";
import { instantMs } from "../periods/timezone";
import type { AppliedCouponInput, WorkingFee } from "./types";

export interface CouponCredit {
  applied_coupon_id: string;
  amount_cents: number;
  /** State of the applied coupon after this invoice. */
  terminated: boolean;
  amount_cents_remaining: number | null;
  frequency_duration_remaining: number | null;
}

const limitedToMetrics = (c: AppliedCouponInput) => (c.billable_metric_codes?.length ?? 0) > 0;
const limitedToPlans = (c: AppliedCouponInput) => !limitedToMetrics(c) && (c.plan_codes?.length ?? 0) > 0;
const rank = (c: AppliedCouponInput) => (limitedToMetrics(c) ? 0 : limitedToPlans(c) ? 1 : 2);

/** Metric-limited coupons first, then plan-limited, then unlimited; oldest first within a class. */
export function orderCoupons(coupons: readonly AppliedCouponInput[]): AppliedCouponInput[] {
  const time = (c: AppliedCouponInput) => (c.created_at == null ? 0 : instantMs(c.created_at));
  return coupons
    .map((coupon, index) => ({ coupon, index }))
    .sort((a, b) => rank(a.coupon) - rank(b.coupon) || time(a.coupon) - time(b.coupon) || a.index - b.index)
    .map((entry) => entry.coupon);
}

function eligibleFees(coupon: AppliedCouponInput, fees: WorkingFee[]): WorkingFee[] {
  if (limitedToMetrics(coupon)) {
    return fees.filter(
      (f) =>
        f.input.fee_type === "charge" && coupon.billable_metric_codes!.includes(f.input.billable_metric_code ?? ""),
    );
  }
  if (limitedToPlans(coupon)) return fees.filter((f) => coupon.plan_codes!.includes(f.input.plan_code ?? ""));
  return fees;
}

/** The credit of one coupon on a base (integer cents, Lago stores credits as integers). */
export function couponAmount(coupon: AppliedCouponInput, base: Decimal): Decimal {
  if (coupon.coupon_type === "percentage") {
    // Lago quirk: the rate is applied as a Float (rate.fdiv(100)), then rounded to the cent.
    const discounted = base.times(fromFloat(fdiv(toDecimal(coupon.percentage_rate), 100)));
    return discounted.gte(base) ? base.trunc() : discounted.round();
  }
  const available =
    coupon.frequency === "once"
      ? (coupon.amount_cents_remaining ?? coupon.amount_cents ?? 0)
      : (coupon.amount_cents ?? 0);
  return minDecimal(new Decimal(available), base).trunc();
}

/**
 * Applies the customer's coupons in order while the sub-total is positive. Each credit is spread
 * on its eligible fees pro rata of what is left on them; the fee's precise coupon amount is kept
 * at 5 decimals, as Lago's decimal(30,5) column does, and never exceeds the fee amount.
 */
export function applyCoupons(
  fees: WorkingFee[],
  coupons: readonly AppliedCouponInput[],
  subTotal: { cents: number },
  currency: string,
): CouponCredit[] {
  const credits: CouponCredit[] = [];
  for (const coupon of orderCoupons(coupons)) {
    if (subTotal.cents <= 0) break;
    if (
      coupon.coupon_type === "fixed_amount" &&
      coupon.amount_currency &&
      coupon.amount_currency.toUpperCase() !== currency.toUpperCase()
    )
      continue;
    const eligible = eligibleFees(coupon, fees);
    if (eligible.length === 0) continue;
    const limited = rank(coupon) < 2;
    const base = limited
      ? eligible.reduce((s, f) => s.plus(f.amountCents.minus(f.preciseCoupons)), ZERO)
      : new Decimal(subTotal.cents);
    const amount = couponAmount(coupon, base);
    for (const fee of eligible) {
      if (!base.isZero()) {
        // Lago quirk: the share is a Float division, then stored at 5 decimals.
        const share = fromFloat(fdiv(amount.times(fee.amountCents.minus(fee.preciseCoupons)), base));
        fee.preciseCoupons = fee.preciseCoupons.plus(share);
      }
      fee.preciseCoupons = minDecimal(fee.preciseCoupons, fee.amountCents).toDecimalPlaces(5);
    }
    subTotal.cents -= amount.toNumber();
    credits.push(couponState(coupon, amount.toNumber()));
  }
  return credits;
}

function couponState(coupon: AppliedCouponInput, credit: number): CouponCredit {
  const remainingAmount = coupon.amount_cents_remaining ?? coupon.amount_cents ?? 0;
  const remainingDuration =
    coupon.frequency === "recurring" ? Math.max(0, (coupon.frequency_duration_remaining ?? 0) - 1) : null;
  let terminated = false;
  if (coupon.frequency === "once") terminated = coupon.coupon_type === "percentage" || credit >= remainingAmount;
  if (coupon.frequency === "recurring") terminated = (remainingDuration ?? 0) <= 0;
  const onceFixed = coupon.frequency === "once" && coupon.coupon_type === "fixed_amount";
  return {
    applied_coupon_id: coupon.id,
    amount_cents: credit,
    terminated,
    amount_cents_remaining: onceFixed ? Math.max(0, remainingAmount - credit) : null,
    frequency_duration_remaining: remainingDuration,
  };
}
