import { Decimal, type DecimalLike, ZERO, minDecimal, toDecimal } from "../decimal";
import { fdiv, fromFloat, roundFloat } from "../lago-float";
import { instantMs } from "../periods/timezone";
import type { CreditNoteInput, WorkingFee } from "./types";

export interface CreditNoteCredit {
  credit_note_id: string;
  amount_cents: number;
  balance_amount_cents: number;
  consumed: boolean;
}

/**
 * Available credit notes, oldest first, each consuming min(balance, what is left of the total),
 * after taxes. Each credit is spread on the fees pro rata of their remaining after-tax amount.
 */
export function applyCreditNotes(
  fees: WorkingFee[],
  creditNotes: readonly CreditNoteInput[],
  totalCents: number,
): CreditNoteCredit[] {
  const time = (c: CreditNoteInput) => (c.created_at == null ? 0 : instantMs(c.created_at));
  const ordered = creditNotes.map((c, i) => ({ c, i })).sort((a, b) => time(a.c) - time(b.c) || a.i - b.i);
  let remaining = totalCents;
  const credits: CreditNoteCredit[] = [];
  for (const { c } of ordered) {
    if (remaining <= 0) break;
    const amount = Math.min(c.balance_amount_cents, remaining);
    if (amount <= 0) continue;
    for (const fee of fees) {
      const afterTax = fee.amountCents.minus(fee.preciseCoupons).plus(fee.taxesAmountCents);
      const share = fromFloat(fdiv(new Decimal(amount).times(afterTax.minus(fee.preciseCreditNotes)), remaining));
      fee.preciseCreditNotes = minDecimal(fee.preciseCreditNotes.plus(share), afterTax).toDecimalPlaces(5);
    }
    remaining -= amount;
    const balance = c.balance_amount_cents - amount;
    credits.push({
      credit_note_id: c.id,
      amount_cents: amount,
      balance_amount_cents: balance,
      consumed: balance === 0,
    });
  }
  return credits;
}

// ---------------------------------------------------------------------------------------------
// Credit notes themselves (billing-rules §3, "Credit notes themselves")

/** A fee of the credited invoice, as it was finalized. */
export interface CreditedFee {
  id: string;
  amount_cents: number;
  /** the coupons (and progressive-billing credit) it took, precise */
  precise_coupons_amount_cents: DecimalLike;
  taxes: ReadonlyArray<{ code: string; rate: DecimalLike }>;
  /** Σ of its taxes' rates (percent) */
  taxes_rate: DecimalLike;
}

export interface CreditNoteItemInput {
  fee: CreditedFee;
  amount_cents: number;
  /** unrounded (a termination's unused days); amount_cents when absent */
  precise_amount_cents?: DecimalLike;
}

export interface CreditNoteAppliedTax {
  tax_code: string;
  tax_rate: string;
  base_amount_cents: number;
  amount_cents: number;
}

export interface CreditNoteAmounts {
  items_amount_cents: number;
  precise_coupons_adjustment_amount_cents: Decimal;
  coupons_adjustment_amount_cents: number;
  precise_taxes_amount_cents: Decimal;
  taxes_amount_cents: number;
  taxes_rate: number;
  /** round(items − coupon share) */
  sub_total_excluding_taxes_amount_cents: number;
  /** items − coupon share + precise taxes, unrounded */
  precise_total: Decimal;
  applied_taxes: CreditNoteAppliedTax[];
}

const preciseOf = (item: CreditNoteItemInput) => toDecimal(item.precise_amount_cents ?? item.amount_cents);
/** What of a fee an item credits (Lago: a Float ratio). */
const itemRate = (item: CreditNoteItemInput) =>
  item.fee.amount_cents === 0 ? 0 : fdiv(preciseOf(item), item.fee.amount_cents);
/** The item's share of the coupons its fee took. */
const couponShare = (item: CreditNoteItemInput) =>
  toDecimal(item.fee.precise_coupons_amount_cents).times(fromFloat(itemRate(item)));

/**
 * A credit note's amounts from its items: each item loses its share of the fee's coupons
 * (item / fee amount × the fee's precise coupons), taxes are computed per tax on those bases
 * (each rounded; the note's total taxes are the rounded sum of the unrounded ones, less the
 * rounding the invoice's earlier notes already took when this one credits all that is left),
 * and the tax rate is the bases' weighted sum of the rates, to 5 decimals.
 */
export function creditNoteAmounts(
  items: readonly CreditNoteItemInput[],
  options: { previous_taxes_rounding?: DecimalLike; all_remaining?: boolean } = {},
): CreditNoteAmounts {
  const itemsAmount = items.reduce((s, i) => s + i.amount_cents, 0);
  const coupons = items.reduce((s, i) => s.plus(couponShare(i)), ZERO);
  const byCode = new Map<string, { rate: Decimal; items: CreditNoteItemInput[] }>();
  for (const item of items) {
    for (const tax of item.fee.taxes) {
      const entry = byCode.get(tax.code) ?? { rate: toDecimal(tax.rate), items: [] };
      entry.items.push(item);
      byCode.set(tax.code, entry);
    }
  }
  const base = (list: readonly CreditNoteItemInput[]) =>
    list.reduce((s, i) => s.plus(preciseOf(i).minus(couponShare(i))), ZERO);
  const totalBase = items.reduce((s, i) => s.plus(preciseOf(i)), ZERO).minus(coupons);
  let precise = ZERO;
  let rate = 0;
  const applied: CreditNoteAppliedTax[] = [];
  for (const [code, entry] of byCode) {
    const taxBase = base(entry.items);
    const amount = taxBase.times(entry.rate).div(100);
    precise = precise.plus(amount);
    rate += (totalBase.isZero() ? 0 : fdiv(taxBase, totalBase)) * entry.rate.toNumber();
    applied.push({
      tax_code: code,
      tax_rate: entry.rate.toString(),
      base_amount_cents: taxBase.round().toNumber(),
      amount_cents: amount.round().toNumber(),
    });
  }
  if (options.all_remaining && options.previous_taxes_rounding !== undefined)
    precise = precise.minus(toDecimal(options.previous_taxes_rounding));
  const subTotal = totalBase.round().toNumber();
  return {
    items_amount_cents: itemsAmount,
    precise_coupons_adjustment_amount_cents: coupons,
    coupons_adjustment_amount_cents: coupons.round().toNumber(),
    precise_taxes_amount_cents: precise,
    taxes_amount_cents: precise.round().toNumber(),
    taxes_rate: new Decimal(rate).toDecimalPlaces(5).toNumber(),
    sub_total_excluding_taxes_amount_cents: subTotal,
    precise_total: totalBase.plus(precise),
    applied_taxes: applied,
  };
}

export interface CreditNoteSplit {
  credit_amount_cents: number;
  refund_amount_cents: number;
  offset_amount_cents: number;
  total_amount_cents: number;
  balance_amount_cents: number;
}

/**
 * The parts a client asked for, adjusted by one cent when sub-total + taxes ≠ total (the credit
 * part takes the cent when there is one, else the refund part); the balance is the credit part.
 */
export function splitCreditNote(
  amounts: CreditNoteAmounts,
  asked: { credit_amount_cents: number; refund_amount_cents: number; offset_amount_cents: number },
): CreditNoteSplit {
  let credit = asked.credit_amount_cents;
  let refund = asked.refund_amount_cents;
  const offset = asked.offset_amount_cents;
  let total = credit + refund + offset;
  const subTotal = total - amounts.taxes_amount_cents;
  if (subTotal !== amounts.sub_total_excluding_taxes_amount_cents) {
    total += subTotal > amounts.sub_total_excluding_taxes_amount_cents ? -1 : 1;
    if (credit > 0) credit = total - refund - offset;
    else refund = total - offset;
  }
  return {
    credit_amount_cents: credit,
    refund_amount_cents: refund,
    offset_amount_cents: offset,
    total_amount_cents: total,
    balance_amount_cents: credit,
  };
}

/** What the items would credit at most (the estimate): round(items − coupon share + taxes), ±1 cent so sub-total + taxes = total. */
export function estimatedCreditAmount(amounts: CreditNoteAmounts): {
  total_amount_cents: number;
  taxes_amount_cents: number;
} {
  let total = amounts.precise_total.round().toNumber();
  let taxes = amounts.taxes_amount_cents;
  const subTotal = total - taxes;
  if (subTotal > amounts.sub_total_excluding_taxes_amount_cents) total -= 1;
  else if (subTotal < amounts.sub_total_excluding_taxes_amount_cents && taxes > 0) taxes -= 1;
  return { total_amount_cents: total, taxes_amount_cents: taxes };
}

/** Invoice-level limits a credit note is checked against (Lago's `fee_total_amount_cents`: fees + their taxes, before coupons). */
export function invoiceFeeTotalCents(fees: ReadonlyArray<{ amount_cents: number; taxes_rate: DecimalLike }>): number {
  const amount = fees.reduce((s, f) => s + f.amount_cents, 0);
  const taxes = fees.reduce((s, f) => s + f.amount_cents * toDecimal(f.taxes_rate).toNumber(), 0) / 100;
  return amount + roundFloat(taxes).toNumber();
}

/**
 * What can still be credited on an invoice (Lago's available_to_credit): the fees' creditable
 * remainders, less their share of the invoice's coupons and progressive credit, plus their taxes.
 */
export function availableToCreditCents(input: {
  fees: ReadonlyArray<{ creditable_amount_cents: number; taxes_rate: DecimalLike }>;
  fees_amount_cents: number;
  coupons_amount_cents: number;
  progressive_billing_credit_amount_cents: number;
}): number {
  const creditable = input.fees.reduce((s, f) => s + f.creditable_amount_cents, 0);
  if (creditable === 0) return 0;
  const adjustment =
    input.fees_amount_cents === 0
      ? 0
      : fdiv(input.coupons_amount_cents + input.progressive_billing_credit_amount_cents, input.fees_amount_cents) *
        creditable;
  const vat =
    input.fees.reduce((s, f) => {
      const prorated = adjustment * (f.creditable_amount_cents / creditable);
      return s + (f.creditable_amount_cents - prorated) * toDecimal(f.taxes_rate).toNumber();
    }, 0) / 100;
  return roundFloat(creditable - adjustment + roundFloat(vat).toNumber()).toNumber();
}

/**
 * What a termination (or an upgrade) of a pay-in-advance plan credits of its last base fee, before
 * coupons and taxes: the unused days at the period's single-day price (plan amount / period days,
 * a Float as Lago), at most the fee, less what earlier notes already credited of it. Unrounded
 * (the item's precise amount); 0 when nothing is left.
 */
export function terminationCreditCents(input: {
  plan_amount_cents: number;
  period_days: number;
  unused_days: number;
  fee_amount_cents: number;
  already_credited_cents: number;
}): Decimal {
  if (input.period_days <= 0 || input.unused_days <= 0) return ZERO;
  let amount = fromFloat((input.plan_amount_cents / input.period_days) * input.unused_days);
  if (amount.gt(input.fee_amount_cents)) amount = new Decimal(input.fee_amount_cents);
  amount = amount.minus(input.already_credited_cents);
  return amount.gt(0) ? amount : ZERO;
}

/** What the used days of a paid period are worth before coupons and taxes (the same Float day price). */
export function usedDaysCents(input: { plan_amount_cents: number; period_days: number; used_days: number }): Decimal {
  if (input.period_days <= 0 || input.used_days <= 0) return ZERO;
  return fromFloat((input.plan_amount_cents / input.period_days) * input.used_days);
}

/**
 * How a termination credit of `total` cents is split when the customer asked for a refund or an
 * offset (Lago's CreateFromTermination): what was paid of the fee (the invoice's payments, pro
 * rata of the fee's share of the invoice) less what the used days are worth (`used_total`, coupon
 * share off and taxes on) is refunded, at most the total, never below zero; `refund` credits the
 * rest, `offset` deducts the rest from what the invoice has due.
 */
export function terminationSplit(input: {
  option: "credit" | "refund" | "offset";
  total: number;
  used_total: number;
  fee_total_precise: DecimalLike;
  invoice_sub_total_including_taxes_cents: number;
  invoice_paid_cents: number;
}): { credit_amount_cents: number; refund_amount_cents: number; offset_amount_cents: number } {
  if (input.option === "credit")
    return { credit_amount_cents: input.total, refund_amount_cents: 0, offset_amount_cents: 0 };
  const share =
    input.invoice_sub_total_including_taxes_cents === 0
      ? 0
      : fdiv(input.fee_total_precise, input.invoice_sub_total_including_taxes_cents);
  const potential = share * input.invoice_paid_cents - input.used_total;
  const refund = potential <= 0 ? 0 : roundFloat(Math.min(potential, input.total)).toNumber();
  return input.option === "refund"
    ? { credit_amount_cents: input.total - refund, refund_amount_cents: refund, offset_amount_cents: 0 }
    : { credit_amount_cents: 0, refund_amount_cents: refund, offset_amount_cents: input.total - refund };
}

/**
 * Items worth `requested` cents in all: each fee's creditable remainder scaled by requested / what
 * the remainders are worth in all (`base_total`, coupons off and taxes on), unrounded (the items'
 * precise amounts), as Lago spreads the credit note of a void over the fees.
 */
export function proRataItems(
  items: ReadonlyArray<{ fee_id: string; amount_cents: number }>,
  requested: number,
  baseTotal: number,
): Array<{ fee_id: string; amount_cents: number; precise_amount_cents: string }> {
  if (baseTotal <= 0) return [];
  const ratio = requested / baseTotal;
  return items.map((i) => {
    const precise = fromFloat(i.amount_cents * ratio);
    return { fee_id: i.fee_id, amount_cents: precise.round().toNumber(), precise_amount_cents: precise.toString() };
  });
}
