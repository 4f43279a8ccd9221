import { Decimal, ZERO, decimalString, toDecimal } from "../decimal";
import { type CouponCredit, applyCoupons } from "./coupons";
import { type CreditNoteCredit, applyCreditNotes } from "./credit-notes";
import { type WalletConsumption, allocatePrepaidCredits } from "./prepaid-credits";
import { applyProgressiveBillingCredit } from "./progressive-credit";
import { type InvoiceAppliedTax, applyFeeTaxes, invoiceTaxes } from "./taxes";
import type {
  AppliedCouponInput,
  CreditNoteInput,
  InvoiceFeeInput,
  ProgressiveBillingCreditInput,
  WalletInput,
  WorkingFee,
} from "./types";

export interface InvoiceTotalsInput {
  currency: string;
  fees: readonly InvoiceFeeInput[];
  /** What the previous progressive invoices of the periods billed credit: one per subscription, applied in order. */
  progressive_billing_credits?: readonly ProgressiveBillingCreditInput[];
  applied_coupons?: readonly AppliedCouponInput[];
  credit_notes?: readonly CreditNoteInput[];
  wallets?: readonly WalletInput[];
  /**
   * What the wallets gave when the invoice was finalized (recorded by the wallet service): used as
   * is instead of allocating `wallets` again, capped at the total left (billing-rules §6).
   */
  prepaid_consumed?: readonly WalletConsumption[];
  /**
   * true when finalizing: coupons, credit notes and prepaid credits are applied. Drafts (grace
   * period) show none of them, but do show progressive-billing credits.
   */
  finalizing: boolean;
}

export interface InvoiceFeeTotals {
  input: InvoiceFeeInput;
  precise_coupons_amount_cents: string;
  precise_credit_notes_amount_cents: string;
  taxes_amount_cents: number;
  taxes_precise_amount_cents: string;
  taxes_rate: number;
  applied_taxes: WorkingFee["appliedTaxes"];
  sub_total_excluding_taxes_amount_cents: string;
  total_amount_cents: number;
}

export interface InvoiceTotals {
  fees_amount_cents: number;
  progressive_billing_credit_amount_cents: number;
  coupons_amount_cents: number;
  sub_total_excluding_taxes_amount_cents: number;
  taxes_amount_cents: number;
  taxes_rate: number;
  sub_total_including_taxes_amount_cents: number;
  credit_notes_amount_cents: number;
  prepaid_credit_amount_cents: number;
  total_amount_cents: number;
  payment_status: "pending" | "succeeded";
  applied_taxes: InvoiceAppliedTax[];
  fees: InvoiceFeeTotals[];
  coupon_credits: CouponCredit[];
  credit_note_credits: CreditNoteCredit[];
  wallet_consumptions: WalletConsumption[];
  /** Progressive credit above this invoice's charge fees: to be credited back on the progressive invoices. */
  progressive_billing_excess_cents: number;
  /** The same, per progressive credit (in `progressive_billing_credits`' order): each on its own progressive invoice. */
  progressive_billing_excesses: number[];
}

function workingFee(input: InvoiceFeeInput): WorkingFee {
  return {
    input,
    amountCents: new Decimal(input.amount_cents),
    preciseAmountCents: toDecimal(input.precise_amount_cents ?? input.amount_cents),
    preciseCoupons: ZERO,
    preciseCreditNotes: ZERO,
    taxesAmountCents: 0,
    taxesPreciseAmountCents: ZERO,
    taxesRate: ZERO,
    appliedTaxes: [],
  };
}

/**
 * Every amount field of an invoice, in Lago's order: fees → progressive-billing credit → coupons
 * (metric-limited, plan-limited, unlimited) → taxes (rounded once on the invoice) → credit notes →
 * prepaid credits → total.
 */
export function computeInvoiceTotals(input: InvoiceTotalsInput): InvoiceTotals {
  const fees = input.fees.map(workingFee);
  const feesAmount = input.fees.reduce((sum, f) => sum + f.amount_cents, 0);
  const subTotal = { cents: feesAmount };

  const progressive = (input.progressive_billing_credits ?? []).map((credit) =>
    applyProgressiveBillingCredit(fees, credit),
  );
  const progressiveAmount = progressive.reduce((sum, p) => sum + p.amount_cents, 0);
  subTotal.cents -= progressiveAmount;

  const couponCredits =
    input.finalizing && feesAmount > 0 ? applyCoupons(fees, input.applied_coupons ?? [], subTotal, input.currency) : [];
  const couponsAmount = couponCredits.reduce((sum, c) => sum + c.amount_cents, 0);

  fees.forEach(applyFeeTaxes);
  const taxes = invoiceTaxes(fees, subTotal.cents);
  const subTotalIncludingTaxes = subTotal.cents + taxes.taxes_amount_cents;

  const creditNoteCredits = input.finalizing
    ? applyCreditNotes(fees, input.credit_notes ?? [], subTotalIncludingTaxes)
    : [];
  const creditNotesAmount = creditNoteCredits.reduce((sum, c) => sum + c.amount_cents, 0);
  let total = subTotalIncludingTaxes - creditNotesAmount;

  const walletConsumptions =
    !input.finalizing || total <= 0
      ? []
      : input.prepaid_consumed
        ? capConsumptions(input.prepaid_consumed, total)
        : allocatePrepaidCredits(fees, input.wallets ?? [], total);
  const prepaid = walletConsumptions.reduce((sum, w) => sum + w.amount_cents, 0);
  total -= prepaid;

  return {
    fees_amount_cents: feesAmount,
    progressive_billing_credit_amount_cents: progressiveAmount,
    coupons_amount_cents: couponsAmount,
    sub_total_excluding_taxes_amount_cents: subTotal.cents,
    taxes_amount_cents: taxes.taxes_amount_cents,
    taxes_rate: taxes.taxes_rate,
    sub_total_including_taxes_amount_cents: subTotalIncludingTaxes,
    credit_notes_amount_cents: creditNotesAmount,
    prepaid_credit_amount_cents: prepaid,
    total_amount_cents: total,
    payment_status: total > 0 ? "pending" : "succeeded",
    applied_taxes: taxes.applied_taxes,
    fees: fees.map(feeTotals),
    coupon_credits: couponCredits,
    credit_note_credits: creditNoteCredits,
    wallet_consumptions: walletConsumptions,
    progressive_billing_excess_cents: progressive.reduce((sum, p) => sum + p.excess_credit_note_cents, 0),
    progressive_billing_excesses: progressive.map((p) => p.excess_credit_note_cents),
  };
}

function feeTotals(fee: WorkingFee): InvoiceFeeTotals {
  return {
    input: fee.input,
    precise_coupons_amount_cents: decimalString(fee.preciseCoupons),
    precise_credit_notes_amount_cents: decimalString(fee.preciseCreditNotes),
    taxes_amount_cents: fee.taxesAmountCents,
    taxes_precise_amount_cents: decimalString(fee.taxesPreciseAmountCents),
    taxes_rate: fee.taxesRate.toNumber(),
    applied_taxes: fee.appliedTaxes,
    sub_total_excluding_taxes_amount_cents: decimalString(fee.amountCents.minus(fee.preciseCoupons)),
    total_amount_cents: fee.amountCents.toNumber() + fee.taxesAmountCents,
  };
}

/** Recorded consumptions in their order, none beyond what is left to pay. */
function capConsumptions(consumed: readonly WalletConsumption[], total: number): WalletConsumption[] {
  let left = total;
  return consumed.flatMap((c) => {
    const amount = Math.min(c.amount_cents, left);
    left -= amount;
    return amount > 0 ? [{ wallet_id: c.wallet_id, amount_cents: amount }] : [];
  });
}
