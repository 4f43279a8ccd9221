import { Decimal, minDecimal } from "../decimal";
import type { ProgressiveBillingCreditInput, WorkingFee } from "./types";

const sameGroup = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * Credits what the previous progressive invoice of the period already billed, capped at this
 * invoice's charge fees for the same charges (the excess becomes a credit note on that invoice).
 * The previous fee amounts are added to the matching fees' precise coupons, so taxes are net of it.
 */
export function applyProgressiveBillingCredit(fees: WorkingFee[], credit: ProgressiveBillingCreditInput) {
  const charges = new Set(credit.previous_fees.map((f) => f.charge_id));
  const charged = fees
    .filter((f) => f.input.fee_type === "charge" && f.input.charge_id != null && charges.has(f.input.charge_id))
    .reduce((sum, f) => sum + f.amountCents.toNumber(), 0);
  const amount = Math.max(0, Math.min(credit.amount_cents, charged));
  const excess = Math.max(0, credit.amount_cents - charged);
  if (amount > 0) {
    for (const previous of credit.previous_fees) {
      const fee = fees.find(
        (f) =>
          f.input.fee_type === "charge" &&
          f.input.charge_id === previous.charge_id &&
          (f.input.charge_filter_id ?? null) === (previous.charge_filter_id ?? null) &&
          sameGroup(f.input.grouped_by, previous.grouped_by),
      );
      if (fee) fee.preciseCoupons = minDecimal(fee.preciseCoupons.plus(new Decimal(previous.amount_cents)), fee.amountCents);
    }
  }
  return { amount_cents: amount, excess_credit_note_cents: excess };
}
