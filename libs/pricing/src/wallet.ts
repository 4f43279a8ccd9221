import { currencyInfo } from "./currency";
import { Decimal, type DecimalLike, ZERO, decimalString, toDecimal } from "./decimal";

export interface CreditConversion {
  /** Money, rounded to the currency exponent, in minor units. */
  amount_cents: number;
  /** Money in major units ("1.03"). */
  amount: string;
  /** Credits re-derived from the rounded money: only whole cents are representable. */
  credit_amount: string;
}

/** Credits → money at rate_amount (money per credit): credits floored to 5 decimals, money rounded to whole cents. */
export function creditsToCents(credits: DecimalLike, rateAmount: DecimalLike, currency: string): CreditConversion {
  const { exponent, subunit } = currencyInfo(currency);
  const rate = toDecimal(rateAmount);
  const floored = toDecimal(credits).toDecimalPlaces(5, Decimal.ROUND_FLOOR);
  const amount = floored.times(rate).toDecimalPlaces(exponent);
  return {
    amount_cents: amount.times(subunit).toNumber(),
    amount: amount.toFixed(exponent),
    credit_amount: decimalString(rate.isZero() ? ZERO : amount.div(rate)),
  };
}

/** Money (minor units, rounded to an integer first) → credits at rate_amount. */
export function centsToCredits(amountCents: DecimalLike, rateAmount: DecimalLike, currency: string): string {
  const rate = toDecimal(rateAmount);
  if (rate.isZero()) return "0.0";
  const money = toDecimal(amountCents).round().div(currencyInfo(currency).subunit);
  return decimalString(money.div(rate));
}

/** A paid or granted top-up whose money rounds to 0 cents is rejected (amount_rounds_to_zero). */
export function topUpRoundsToZero(credits: DecimalLike, rateAmount: DecimalLike, currency: string): boolean {
  return creditsToCents(credits, rateAmount, currency).amount_cents === 0;
}

export interface ThresholdTopUpInput {
  threshold_credits: DecimalLike;
  ongoing_balance_credits: DecimalLike;
  paid_credits: DecimalLike;
  granted_credits?: DecimalLike;
  pending_credits?: DecimalLike;
  /** Max paid top-up in credits (null = no cap, or limits ignored). */
  max_paid_credits?: DecimalLike | null;
}

/** Threshold rule, method fixed: paid credits multiplied so the balance ends strictly above the threshold. */
export function thresholdTopUpPaidCredits(input: ThresholdTopUpInput): string {
  const paid = toDecimal(input.paid_credits);
  const gap = toDecimal(input.threshold_credits)
    .minus(toDecimal(input.ongoing_balance_credits))
    .minus(toDecimal(input.granted_credits))
    .minus(toDecimal(input.pending_credits));
  let credits = paid;
  if (paid.gt(0) && gap.gte(paid)) credits = paid.times(gap.div(paid).floor().plus(1));
  if (input.max_paid_credits != null) credits = Decimal.min(credits, toDecimal(input.max_paid_credits));
  return decimalString(credits);
}

/** Method target: top up to target_ongoing_balance (0 when already there; the min top-up applies, the max does not). */
export function targetTopUpCredits(
  target: DecimalLike,
  ongoingBalance: DecimalLike,
  minCredits?: DecimalLike | null,
): string {
  const gap = toDecimal(target).minus(toDecimal(ongoingBalance));
  if (gap.lte(0)) return "0.0";
  return decimalString(minCredits == null ? gap : Decimal.max(gap, toDecimal(minCredits)));
}

/** A wallet as ongoing usage is spread over it: its settled balance, in the order credits are taken. */
export interface OngoingWallet {
  id: string;
  balance_cents: number;
}

/**
 * A customer's ongoing usage (current-period usage and drafts, in cents, taxes included) spread
 * over its wallets in the order they pay (billing-rules §6): each takes up to its balance; the last
 * wallet takes what is left, and may go below zero. Each wallet's share, in cents.
 */
export function allocateOngoingUsage(wallets: readonly OngoingWallet[], usageCents: number): Map<string, number> {
  const shares = new Map<string, number>();
  let left = Math.max(0, Math.round(usageCents));
  wallets.forEach((w, i) => {
    const share = i === wallets.length - 1 ? left : Math.min(left, Math.max(0, w.balance_cents));
    shares.set(w.id, share);
    left -= share;
  });
  return shares;
}
