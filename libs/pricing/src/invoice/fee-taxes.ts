import { Decimal, ZERO, decimalString, toDecimal } from "../decimal";
import { applyFeeTaxes } from "./taxes";
import type { InvoiceFeeInput, WorkingFee } from "./types";

export interface FeeTaxes {
  taxes_amount_cents: number;
  taxes_precise_amount_cents: string;
  taxes_rate: number;
  applied_taxes: WorkingFee["appliedTaxes"];
  total_amount_cents: number;
}

/** Taxes of one fee on its own (pay-in-advance fees, estimates): no coupons applied. */
export function computeFeeTaxes(fee: InvoiceFeeInput): FeeTaxes {
  const working: WorkingFee = {
    input: fee,
    amountCents: new Decimal(fee.amount_cents),
    preciseAmountCents: toDecimal(fee.precise_amount_cents ?? fee.amount_cents),
    preciseCoupons: ZERO,
    preciseCreditNotes: ZERO,
    taxesAmountCents: 0,
    taxesPreciseAmountCents: ZERO,
    taxesRate: ZERO,
    appliedTaxes: [],
  };
  applyFeeTaxes(working);
  return {
    taxes_amount_cents: working.taxesAmountCents,
    taxes_precise_amount_cents: decimalString(working.taxesPreciseAmountCents),
    taxes_rate: working.taxesRate.toNumber(),
    applied_taxes: working.appliedTaxes,
    total_amount_cents: fee.amount_cents + working.taxesAmountCents,
  };
}
