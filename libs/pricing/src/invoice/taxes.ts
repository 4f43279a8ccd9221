import { Decimal, ZERO, decimalString, toDecimal } from "../decimal";
import { fromFloat, roundFloat } from "../lago-float";
import type { WorkingFee } from "./types";

export interface InvoiceAppliedTax {
  tax_code: string;
  tax_name: string | null;
  tax_rate: string;
  amount_cents: number;
  /** Σ taxable base (fee amount − precise coupons) of the fees carrying this tax. */
  fees_amount_cents: number;
}

/** Lago quirk: a tax is (base × rate).fdiv(100) — a Float. */
const taxFloat = (base: Decimal, rate: Decimal) => Number(base.times(rate).toString()) / 100;

/**
 * Fee taxes, on (amount_cents − precise_coupons_amount_cents): each applied tax rounded,
 * fee.taxes_amount_cents = round(Σ unrounded), taxes_precise_amount_cents on the precise amount.
 * Credit (wallet top-up) fees are never taxed.
 */
export function applyFeeTaxes(fee: WorkingFee): void {
  const taxes = fee.input.fee_type === "credit" ? [] : (fee.input.taxes ?? []);
  const base = fee.amountCents.minus(fee.preciseCoupons);
  const preciseBase = fee.preciseAmountCents.minus(fee.preciseCoupons);
  let total = 0;
  let precise = ZERO;
  let rate = ZERO;
  fee.appliedTaxes = taxes.map((tax) => {
    const taxRate = toDecimal(tax.rate);
    const amount = taxFloat(base, taxRate);
    const preciseAmount = preciseBase.times(taxRate).div(100);
    total += amount;
    precise = precise.plus(preciseAmount);
    rate = rate.plus(taxRate);
    return {
      tax_code: tax.code,
      tax_name: tax.name ?? null,
      tax_rate: taxRate.toString(),
      amount_cents: roundFloat(amount).toNumber(),
      precise_amount_cents: decimalString(preciseAmount),
    };
  });
  fee.taxesAmountCents = roundFloat(total).toNumber();
  fee.taxesPreciseAmountCents = precise;
  fee.taxesRate = rate;
}

/**
 * Invoice taxes: per tax, Σ over its fees of base × rate / 100, rounded once per tax; the invoice
 * total is round(Σ unrounded over all taxes) — not the sum of fee taxes nor of rounded applied taxes.
 */
export function invoiceTaxes(fees: readonly WorkingFee[], subTotalExcludingTaxes: number) {
  const byCode = new Map<string, { name: string | null; rate: Decimal; fees: WorkingFee[] }>();
  for (const fee of fees) {
    if (fee.input.fee_type === "credit") continue;
    for (const tax of fee.input.taxes ?? []) {
      const entry = byCode.get(tax.code) ?? { name: tax.name ?? null, rate: toDecimal(tax.rate), fees: [] };
      entry.fees.push(fee);
      byCode.set(tax.code, entry);
    }
  }
  let total = 0;
  let rate = ZERO;
  const applied: InvoiceAppliedTax[] = [];
  for (const [code, entry] of byCode) {
    const base = entry.fees.reduce((s, f) => s.plus(f.amountCents.minus(f.preciseCoupons)), ZERO);
    const amount = taxFloat(base, entry.rate);
    total += amount;
    const share =
      subTotalExcludingTaxes > 0
        ? fromFloat(Number(base.toString()) / subTotalExcludingTaxes)
        : new Decimal(entry.fees.length).div(fees.length);
    rate = rate.plus(share.times(entry.rate));
    applied.push({
      tax_code: code,
      tax_name: entry.name,
      tax_rate: entry.rate.toString(),
      amount_cents: roundFloat(amount).toNumber(),
      fees_amount_cents: base.round().toNumber(),
    });
  }
  return {
    taxes_amount_cents: roundFloat(total).toNumber(),
    taxes_rate: rate.toDecimalPlaces(5).toNumber(),
    applied_taxes: applied,
  };
}
