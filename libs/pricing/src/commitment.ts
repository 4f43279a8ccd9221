import { currencyInfo } from "./currency";
import { type Decimal, type DecimalLike, ZERO, decimalString, toDecimal } from "./decimal";
import { fdiv, fromFloat, roundFloat } from "./lago-float";

export interface CommitmentTrueUpInput {
  /** The plan's minimum_commitment.amount_cents, for a whole plan period. */
  commitment_amount_cents: number;
  /**
   * Every fee of the subscription over the commitment period: the base fee, usage charge fees
   * (in arrears and paid in advance, spending-minimum true-ups included) and fixed-charge fees;
   * for a yearly plan billing charges monthly, those of every invoice of the year.
   */
  fees: readonly { amount_cents: number; precise_amount_cents?: DecimalLike | null }[];
  /** Days of the plan period the subscription was billed for (customer zone); the whole period when omitted. */
  billed_days?: number;
  /** Length of the plan period in days. */
  period_days?: number;
  currency: string;
}

export interface CommitmentTrueUpFee {
  amount_cents: number;
  precise_amount_cents: string;
  unit_amount_cents: number;
  precise_unit_amount: string;
  units: "1.0";
  events_count: 0;
  /** The commitment the fees were measured against, prorated to the billed days. */
  commitment_amount_cents: number;
}

/**
 * The minimum commitment true-up (billing-rules §3 step 1, last fee; fee_type `commitment`):
 * commitment − Σ fees, 0 when the fees reach it. A partial plan period (a start mid-period, a
 * termination) prorates the commitment: round(amount × billed days / period days).
 * Lago quirks: the proration coefficient is a Float division, and the unit amount is the
 * amount in cents over the subunit as a Float. Lago stores the fee even at 0.
 */
export function computeCommitmentTrueUp(input: CommitmentTrueUpInput): CommitmentTrueUpFee {
  const periodDays = input.period_days ?? 0;
  const days = input.billed_days ?? periodDays;
  const whole = periodDays <= 0 || days >= periodDays;
  const commitment = whole
    ? input.commitment_amount_cents
    : roundFloat(input.commitment_amount_cents * fdiv(days, periodDays)).toNumber();
  const used = input.fees.reduce((sum, fee) => sum + fee.amount_cents, 0);
  const usedPrecise: Decimal = input.fees.reduce(
    (sum, fee) => sum.plus(toDecimal(fee.precise_amount_cents ?? fee.amount_cents)),
    ZERO,
  );
  const amountCents = Math.max(0, commitment - used);
  const precise = usedPrecise.gte(commitment) ? ZERO : toDecimal(commitment).minus(usedPrecise);
  const subunit = currencyInfo(input.currency).subunit.toNumber();
  return {
    amount_cents: amountCents,
    precise_amount_cents: decimalString(precise),
    unit_amount_cents: amountCents,
    precise_unit_amount: decimalString(fromFloat(amountCents / subunit)),
    units: "1.0",
    events_count: 0,
    commitment_amount_cents: commitment,
  };
}
