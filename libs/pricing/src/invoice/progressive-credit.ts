import { Decimal, minDecimal } from "../decimal";
import type { ProgressiveBillingCreditInput, WorkingFee } from "./types";

const sameGroup = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * Credits what the previous progressive invoice of the period already billed, capped at this
 * invoice's charge fees for the same charges of the same subscription (Lago's
 * Credits::ProgressiveBillingService, one credit per subscription); the excess becomes a credit note
 * on that progressive invoice. The previous fee amounts are added to the matching fees' precise
 * coupons, so taxes are net of it.
 */
export function applyProgressiveBillingCredit(fees: WorkingFee[], credit: ProgressiveBillingCreditInput) {
  const ofSubscription = (f: WorkingFee) =>
    credit.subscription_id == null ||
    f.input.subscription_id == null ||
    f.input.subscription_id === credit.subscription_id;
  const own = fees.filter((f) => f.input.fee_type === "charge" && f.input.charge_id != null && ofSubscription(f));
  const charges = new Set(credit.previous_fees.map((f) => f.charge_id));
  const charged = own
    .filter((f) => charges.has(f.input.charge_id!))
    .reduce((sum, f) => sum + f.amountCents.toNumber(), 0);
  const amount = Math.max(0, Math.min(credit.amount_cents, charged));
  const excess = Math.max(0, credit.amount_cents - charged);
  if (amount > 0) {
    for (const previous of credit.previous_fees) {
      const fee = own.find(
        (f) =>
          f.input.charge_id === previous.charge_id &&
          (f.input.charge_filter_id ?? null) === (previous.charge_filter_id ?? null) &&
          sameGroup(f.input.grouped_by, previous.grouped_by),
      );
      if (fee)
        fee.preciseCoupons = minDecimal(fee.preciseCoupons.plus(new Decimal(previous.amount_cents)), fee.amountCents);
    }
  }
  return { amount_cents: amount, excess_credit_note_cents: excess };
}

/** What a progressive-billing invoice can still credit to the next invoice of its period (billing-rules §3.2). */
export interface ProgressiveInvoiceBalance {
  fees_amount_cents: number;
  coupons_amount_cents: number;
  /** progressive credits other (non-voided) invoices already took from it */
  credited_elsewhere_cents?: number;
  /** credit notes issued on it (available or consumed) */
  credit_notes_cents?: number;
}

/**
 * The amount the latest progressive invoice of a period credits the next one (a later progressive
 * invoice, or the period's final, termination or upgrade invoice): its fees (cumulative
 * period-to-date) less its coupons, the credits already taken from it and its credit notes; never
 * below zero.
 */
export function progressiveCreditAmount(previous: ProgressiveInvoiceBalance): number {
  const left =
    previous.fees_amount_cents -
    previous.coupons_amount_cents -
    (previous.credited_elsewhere_cents ?? 0) -
    (previous.credit_notes_cents ?? 0);
  return Math.max(0, left);
}

/** A fee of a progressive invoice and what is left of it to credit (its amount less earlier credit notes' items). */
export interface CreditableFee {
  id: string;
  amount_cents: number;
  creditable_cents: number;
}

/**
 * The items of the credit note a progressive invoice gets when the period's invoice cannot take
 * all it credits (usage fell after it was billed: billing-rules §3.2): the excess spread over its
 * fees, the dearest first, each up to what is left of it. Null when its fees cannot hold the
 * excess (several progressive invoices in one period: Lago leaves that to a person too).
 */
export function progressiveExcessItems(
  fees: readonly CreditableFee[],
  excessCents: number,
): Array<{ fee_id: string; amount_cents: number }> | null {
  const items: Array<{ fee_id: string; amount_cents: number }> = [];
  let remaining = excessCents;
  for (const fee of [...fees].sort((a, b) => b.amount_cents - a.amount_cents)) {
    if (remaining <= 0) break;
    const take = Math.min(remaining, Math.max(0, fee.creditable_cents));
    if (take <= 0) continue;
    items.push({ fee_id: fee.id, amount_cents: take });
    remaining -= take;
  }
  return remaining > 0 ? null : items;
}
