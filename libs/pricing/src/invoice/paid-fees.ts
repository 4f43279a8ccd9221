import type { InvoiceAppliedTax } from "./taxes";

/** A fee already taxed when it was created (a pay-in-advance fee paid before it is invoiced). */
export interface PaidFeeInput {
  amount_cents: number;
  taxes_amount_cents: number;
  applied_taxes: ReadonlyArray<{ tax_code: string; tax_name: string | null; tax_rate: string; amount_cents: number }>;
}

export interface PaidFeesTotals {
  fees_amount_cents: number;
  progressive_billing_credit_amount_cents: 0;
  coupons_amount_cents: 0;
  sub_total_excluding_taxes_amount_cents: number;
  taxes_amount_cents: number;
  taxes_rate: number;
  sub_total_including_taxes_amount_cents: number;
  credit_notes_amount_cents: 0;
  prepaid_credit_amount_cents: 0;
  total_amount_cents: number;
  applied_taxes: InvoiceAppliedTax[];
}

/**
 * The totals of an invoice gathering fees that were taxed and paid before it (Lago's
 * `advance_charges` invoice): its taxes are the SUM of the fees' own rounded taxes, never taxes
 * recomputed on the invoice (what was paid is shown as paid: 150.60 + 17.07 + 16.06 at 20 % gives
 * 36.74 of taxes, where a tax on the invoice's total would give 36.75). No progressive credit,
 * coupon, credit note nor prepaid credit applies. Per tax: Σ applied amounts and Σ fee bases.
 */
export function paidFeesTotals(fees: readonly PaidFeeInput[]): PaidFeesTotals {
  const feesAmount = fees.reduce((n, f) => n + f.amount_cents, 0);
  const taxes = fees.reduce((n, f) => n + f.taxes_amount_cents, 0);
  const byCode = new Map<string, InvoiceAppliedTax>();
  for (const fee of fees) {
    for (const t of fee.applied_taxes) {
      const entry = byCode.get(t.tax_code) ?? {
        tax_code: t.tax_code,
        tax_name: t.tax_name,
        tax_rate: t.tax_rate,
        amount_cents: 0,
        fees_amount_cents: 0,
      };
      entry.amount_cents += t.amount_cents;
      entry.fees_amount_cents += fee.amount_cents;
      byCode.set(t.tax_code, entry);
    }
  }
  return {
    fees_amount_cents: feesAmount,
    progressive_billing_credit_amount_cents: 0,
    coupons_amount_cents: 0,
    sub_total_excluding_taxes_amount_cents: feesAmount,
    taxes_amount_cents: taxes,
    // shown for consistency: the effective rate, two decimals
    taxes_rate: feesAmount === 0 ? 0 : Math.round((taxes * 100 * 100) / feesAmount) / 100,
    sub_total_including_taxes_amount_cents: feesAmount + taxes,
    credit_notes_amount_cents: 0,
    prepaid_credit_amount_cents: 0,
    total_amount_cents: feesAmount + taxes,
    applied_taxes: [...byCode.values()],
  };
}
