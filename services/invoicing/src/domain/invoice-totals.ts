import type { TaxViewData } from "@billing/contracts";
import {
  computeInvoiceTotals,
  type AppliedCouponInput,
  type CreditNoteCredit,
  type CreditNoteInput,
  type InvoiceFeeInput,
  type WalletConsumption,
  type WalletInput,
} from "@billing/pricing";
import {
  AMOUNT_FIELDS,
  progressiveCreditParts,
  type ProgressiveCredit,
  type AppliedTaxAmount,
  type Fee,
  type FeeDraft,
  type InvoiceAmounts,
  type InvoiceAppliedTax,
  type PlannedCoupon,
} from "./invoice";

export interface PricedInvoice {
  fees: Fee[];
  amounts: InvoiceAmounts;
  applied_taxes: InvoiceAppliedTax[];
  /** the credit each coupon gives (finalizing only), in the order they apply */
  coupons: PlannedCoupon[];
  /** what each wallet gives (finalizing only), in the order they are taken */
  wallets: WalletConsumption[];
  /** what each credit note gives (finalizing only), oldest first */
  credit_notes: CreditNoteCredit[];
  /** what the progressive credit could not take (the period's charges fell below what was billed) */
  progressive_billing_excess_cents: number;
  /** the same per progressive invoice it came from (null: an invoice stored before parts, whose excess cannot be told apart) */
  progressive_excesses: Array<{ progressive_invoice_id: string | null; excess_cents: number }>;
}

const feeInput = (fee: FeeDraft): InvoiceFeeInput => ({
  id: fee.id,
  fee_type: fee.fee_type,
  amount_cents: fee.amount_cents,
  precise_amount_cents: fee.precise_amount_cents,
  billable_metric_code: fee.billable_metric_code,
  plan_code: fee.plan_code,
  subscription_id: fee.subscription_id,
  charge_id: fee.charge_id,
  charge_filter_id: fee.charge_filter_index === null ? null : String(fee.charge_filter_index),
  grouped_by: fee.item.grouped_by,
  taxes: fee.taxes.map((t) => ({ code: t.code, rate: t.rate, name: t.name })),
});

/**
 * The invoice's amounts by billing-rules §3, all from the pricing library: fees → progressive
 * billing credit (none yet) → coupons (finalizing only) → taxes (rounded once on the invoice) →
 * credit notes (none yet) → prepaid credits (finalizing only: allocated over `wallets`, or as the
 * wallets recorded them, `prepaidConsumed`) → totals. Pure.
 */
export function priceInvoice(input: {
  currency: string;
  fees: readonly FeeDraft[];
  coupons: readonly AppliedCouponInput[];
  finalizing: boolean;
  wallets?: readonly WalletInput[];
  prepaidConsumed?: readonly WalletConsumption[];
  /** what the latest progressive invoice of the period credits (billing-rules §3.2) */
  progressiveCredit?: ProgressiveCredit | null;
  /** credit notes with a balance (finalizing only; as consumed: their balance = what they gave) */
  creditNotes?: readonly CreditNoteInput[];
}): PricedInvoice {
  const credit = input.progressiveCredit ?? null;
  const parts = credit ? progressiveCreditParts(credit) : null;
  const credits = credit ? (parts ?? [credit]) : [];
  const totals = computeInvoiceTotals({
    currency: input.currency,
    fees: input.fees.map(feeInput),
    progressive_billing_credits: credits,
    applied_coupons: input.coupons,
    wallets: input.wallets,
    prepaid_consumed: input.prepaidConsumed,
    credit_notes: input.creditNotes,
    finalizing: input.finalizing,
  });
  const taxOf = new Map<string, TaxViewData>(input.fees.flatMap((f) => f.taxes).map((t) => [t.code, t]));
  const applied = (a: {
    tax_code: string;
    tax_name: string | null;
    tax_rate: string;
    amount_cents: number;
  }): AppliedTaxAmount => {
    const tax = taxOf.get(a.tax_code);
    return {
      tax_code: a.tax_code,
      tax_name: a.tax_name ?? tax?.name ?? a.tax_code,
      tax_rate: a.tax_rate,
      tax_id: tax?.svc_id ?? null,
      tax_description: tax?.description ?? null,
      amount_cents: a.amount_cents,
    };
  };
  const couponById = new Map(input.coupons.map((c) => [c.id, c]));
  return {
    fees: input.fees.map((draft, i) => {
      const t = totals.fees[i]!;
      return {
        ...draft,
        precise_coupons_amount_cents: t.precise_coupons_amount_cents,
        taxes_amount_cents: t.taxes_amount_cents,
        taxes_precise_amount_cents: t.taxes_precise_amount_cents,
        taxes_rate: t.taxes_rate,
        sub_total_excluding_taxes_precise_amount_cents: t.sub_total_excluding_taxes_amount_cents,
        total_amount_cents: t.total_amount_cents,
        applied_taxes: t.applied_taxes.map(applied),
      };
    }),
    amounts: Object.fromEntries(AMOUNT_FIELDS.map((k) => [k, totals[k]])) as InvoiceAmounts,
    applied_taxes: totals.applied_taxes.map((a) => ({ ...applied(a), fees_amount_cents: a.fees_amount_cents })),
    coupons: totals.coupon_credits
      .filter((c) => c.amount_cents > 0)
      .map((c) => ({ coupon: couponById.get(c.applied_coupon_id)!, amount_cents: c.amount_cents })),
    wallets: totals.wallet_consumptions,
    credit_notes: totals.credit_note_credits,
    progressive_billing_excess_cents: totals.progressive_billing_excess_cents,
    progressive_excesses: totals.progressive_billing_excesses.map((excess_cents, i) => ({
      progressive_invoice_id: parts?.[i]?.progressive_invoice_id ?? null,
      excess_cents,
    })),
  };
}

/**
 * The coupons an invoice is finalized with once their credits are consumed: each as the fixed
 * credit the catalog recorded, in the order they applied, so the totals show exactly what was
 * consumed (the same spread over the fees as the coupon itself gives).
 */
export function consumedCoupons(consumed: readonly PlannedCoupon[], currency: string): AppliedCouponInput[] {
  return consumed.map(({ coupon, amount_cents }) => ({
    id: coupon.id,
    coupon_type: "fixed_amount",
    frequency: "once",
    amount_cents,
    amount_cents_remaining: amount_cents,
    amount_currency: currency,
    billable_metric_codes: coupon.billable_metric_codes ?? null,
    plan_codes: coupon.plan_codes ?? null,
    created_at: coupon.created_at ?? null,
  }));
}
