import { currencyInfo } from "./currency";
import { type Decimal, type DecimalLike, ZERO, decimalString, toDecimal } from "./decimal";
import { fdiv, fromFloat, roundFloat } from "./lago-float";

export interface TrueUpInput {
  /** The charge's spending minimum, in cents. */
  min_amount_cents: number;
  /** Every fee of the charge for the period (all filters, all groups). */
  fees: readonly { amount_cents: number; precise_amount_cents?: DecimalLike | null }[];
  /** Full charges period length in days. */
  charges_duration_days: number;
  /** Days billed (customer time zone, both ends included); the full period when omitted. */
  billed_days?: number;
  currency: string;
}

export interface TrueUpFee {
  amount_cents: number;
  precise_amount_cents: string;
  unit_amount_cents: number;
  precise_unit_amount: string;
  units: "1.0";
  total_aggregated_units: "1.0";
  events_count: 0;
}

/**
 * The true-up fee of a charge with min_amount_cents, or null when usage reaches the (prorated) minimum.
 * Lago quirk: the prorated minimum is min / period days × billed days in Float arithmetic.
 */
export function computeTrueUpFee(input: TrueUpInput): TrueUpFee | null {
  const days = input.billed_days ?? input.charges_duration_days;
  const proratedMin = fdiv(input.min_amount_cents, input.charges_duration_days) * days;
  const used = input.fees.reduce((sum, fee) => sum + fee.amount_cents, 0);
  if (used >= proratedMin) return null;
  const usedPrecise: Decimal = input.fees.reduce(
    (sum, fee) => sum.plus(toDecimal(fee.precise_amount_cents ?? fee.amount_cents)),
    ZERO,
  );
  const amountCents = roundFloat(proratedMin - used).toNumber();
  const precise = fromFloat(proratedMin).minus(usedPrecise);
  return {
    amount_cents: amountCents,
    precise_amount_cents: decimalString(precise),
    unit_amount_cents: amountCents,
    precise_unit_amount: decimalString(precise.div(currencyInfo(input.currency).subunit)),
    units: "1.0",
    total_aggregated_units: "1.0",
    events_count: 0,
  };
}
