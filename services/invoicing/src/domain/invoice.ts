import type { FeeType, InvoicingReason, SubscriptionInvoicingReason } from "@billing/codes";
import type { CustomerViewData, StoredChargeSnapshot, TaxViewData } from "@billing/contracts";
import type { AppliedCouponInput, InvoiceTotals, ProgressiveBillingCreditInput } from "@billing/pricing";

/**
 * `generating`: stored, being finalized at once (no grace period); `draft`: in its grace period;
 * `finalized`; `closed`: a zero-amount invoice the customer does not want (kept, never shown).
 * `generating` and `closed` are invisible, as in Lago.
 */
export type InvoiceStatus = "generating" | "draft" | "finalized" | "closed" | "voided" | "deleted";
export type PaymentStatus = "pending" | "succeeded" | "failed";
export const VISIBLE_STATUSES: readonly InvoiceStatus[] = ["draft", "finalized", "voided"];
export const OPEN_STATUSES: readonly InvoiceStatus[] = ["generating", "draft"];
/** A finalized invoice with one of these is still to be paid (it can become overdue). */
export const UNPAID_STATUSES: readonly PaymentStatus[] = ["pending", "failed"];

/** One subscription on an invoice: which billing of it, and the spans it covers. */
export interface InvoiceLine {
  subscription_id: string;
  external_subscription_id: string;
  plan_id: string;
  plan_code: string;
  reason: SubscriptionInvoicingReason;
  /** what billing_periods[] shows: the reason, or in_advance_charge for an arrears plan's pay-in-advance fixed charges at its start */
  invoicing_reason: InvoicingReason;
  /** the billing entry's instant */
  at: Date;
  subscription_from: Date | null;
  subscription_to: Date | null;
  charges_from: Date | null;
  charges_to: Date | null;
  /** the fixed charges' span when the line bills neither a base fee nor usage (pay-in-advance fixed charges at a start) */
  fixed_from?: Date | null;
  fixed_to?: Date | null;
}

/** What a fee shows of the item it bills (Lago's fee `item`). */
export interface FeeItem {
  code: string;
  name: string;
  description: string | null;
  invoice_display_name: string;
  filter_invoice_display_name: string | null;
  filters: Record<string, string[]> | null;
  item_id: string;
  item_type: "Subscription" | "BillableMetric" | "AddOn" | "WalletTransaction";
  grouped_by: Record<string, string>;
}

/** A fee before the invoice pipeline (coupons, taxes) has run: what was priced and from what. */
export interface FeeDraft {
  /** stable within the invoice (the same fee keeps its id when a draft is refreshed) */
  id: string;
  fee_type: FeeType;
  subscription_id: string;
  external_subscription_id: string;
  plan_code: string;
  charge_id: string | null;
  charge_filter_index: number | null;
  fixed_charge_id: string | null;
  billable_metric_code: string | null;
  /** a charge fee's model and its metric's aggregation (what current and past usage show) */
  charge_model: string | null;
  aggregation_type: string | null;
  /** the charge fee this min_amount true-up completes */
  true_up_parent_fee_id: string | null;
  /** a charge's min_amount true-up fee */
  true_up: boolean;
  item: FeeItem;
  units: string;
  total_aggregated_units: string;
  events_count: number | null;
  precise_unit_amount: string;
  amount_cents: number;
  precise_amount_cents: string;
  pay_in_advance: boolean;
  invoiceable: boolean;
  from: Date | null;
  to: Date | null;
  amount_details: Record<string, unknown>;
  /** the properties it was priced with (the filter's or the charge's), as billed */
  properties: Record<string, unknown>;
  /** the taxes it carries (billing-rules §3 selection) */
  taxes: TaxViewData[];
  description: string | null;
  /** a charge fee: what the usage service priced it from (its snapshot), for GET /invoices/{id}/audit */
  charge_snapshot?: StoredChargeSnapshot;
  /** a charge fee: when its usage was read (events acknowledged later were not there: late) */
  usage_read_at?: Date | null;
}

export interface AppliedTaxAmount {
  tax_code: string;
  tax_name: string;
  tax_rate: string;
  tax_id: string | null;
  tax_description: string | null;
  amount_cents: number;
}

/** A fee once the invoice pipeline has run. */
export interface Fee extends FeeDraft {
  precise_coupons_amount_cents: string;
  taxes_amount_cents: number;
  taxes_precise_amount_cents: string;
  taxes_rate: number;
  sub_total_excluding_taxes_precise_amount_cents: string;
  total_amount_cents: number;
  applied_taxes: AppliedTaxAmount[];
  /** a pay-in-advance fee: the version of the charge the usage service priced it with (its audit replays that version); absent before versions */
  charge_version?: string | null;
}

/** An invoice's amounts, as the pricing library's pipeline gives them (billing-rules §3). */
export type InvoiceAmounts = Pick<InvoiceTotals, (typeof AMOUNT_FIELDS)[number]>;
export const AMOUNT_FIELDS = [
  "fees_amount_cents",
  "progressive_billing_credit_amount_cents",
  "coupons_amount_cents",
  "sub_total_excluding_taxes_amount_cents",
  "taxes_amount_cents",
  "taxes_rate",
  "sub_total_including_taxes_amount_cents",
  "credit_notes_amount_cents",
  "prepaid_credit_amount_cents",
  "total_amount_cents",
] as const;

export interface InvoiceAppliedTax extends AppliedTaxAmount {
  fees_amount_cents: number;
}

/** A coupon's credit on the invoice, as the catalog recorded it. */
export interface InvoiceCredit {
  id: string;
  applied_coupon_id: string;
  amount_cents: number;
  currency: string;
  item: { id: string; type: string; code: string; name: string };
}

export interface InvoiceMetadata {
  id: string;
  key: string;
  value: string;
  created_at: Date;
}

/**
 * What a finalization decided before it consumed anything: the fees it finalizes and the coupon
 * credits it takes. Stored first, so a finalization resumed after a crash takes the same credits
 * (consumption is idempotent per invoice) and never a second set.
 */
export interface FinalizationPlan {
  fees: FeeDraft[];
  coupons: PlannedCoupon[];
  /** the prepaid credits each wallet is to give, in order (absent in plans stored before wallets) */
  wallets?: Array<{ wallet_id: string; amount_cents: number }>;
  /** the credit notes' balances it is to take, oldest first (absent in plans stored before credit notes) */
  credit_notes?: PlannedCreditNote[];
  /** the customer's invoice custom sections it shows (absent in plans stored before them, or without the customer service) */
  custom_sections?: CustomSection[];
}

/** An invoice custom section as the customer's invoices show it (the catalog's section, resolved by the customer service). */
export interface CustomSection {
  code: string;
  name: string;
  display_name: string | null;
  details: string | null;
}

/** A custom section applied to a finalized invoice (Lago's applied_invoice_custom_sections): kept as it was then. */
export interface AppliedCustomSection extends CustomSection {
  id: string;
  created_at: Date;
}

/** A credit note's share of an invoice: planned, then as the note recorded it (its number shown in the invoice's credits). */
export interface PlannedCreditNote {
  credit_note_id: string;
  number: string;
  amount_cents: number;
  created_at: Date;
}

export interface PlannedCoupon {
  coupon: AppliedCouponInput;
  amount_cents: number;
}

/** A choice of invoice custom sections as an invoice keeps it: skipped, or the ids chosen. */
export interface SectionChoiceRecord {
  skip: boolean;
  section_ids: string[];
}

/** An invoice as this service stores it: one document, its fees embedded (never a half invoice). */
export interface Invoice {
  id: string;
  organization_id: string;
  customer_id: string;
  external_customer_id: string;
  billing_entity_code: string | null;
  sandbox: boolean;
  /** subscription: a billing of subscriptions; credit: a wallet's paid top-up (one untaxed fee) */
  invoice_type: "subscription" | "credit" | "progressive_billing" | "one_off" | "advance_charges";
  /** a credit invoice's wallet transaction (settled by the wallet service when this invoice is paid) */
  wallet_transaction_id?: string | null;
  /** the billing instant it was issued for; with `part`, what its id is derived from */
  billed_at: Date;
  part: number;
  lines: InvoiceLine[];
  status: InvoiceStatus;
  payment_status: PaymentStatus;
  /** what its payments brought so far (succeeded ones) */
  total_paid_amount_cents?: number;
  /** the payment outcomes applied to it (`payment id|outcome`): each once */
  applied_payments?: string[];
  /**
   * succeeded provider payments' parts it could not take (it was paid, or credited, meanwhile):
   * written by the same write as their outcome, given back by the payment service
   */
  overpayments?: { payment_id: string; amount_cents: number }[];
  number: string;
  /** the customer's sequence of finalized invoices (per billing entity) */
  sequential_id: number | null;
  currency: string;
  issuing_date: string;
  payment_due_date: string;
  net_payment_term: number;
  /** a draft's last day of grace + 1: the day it is finalized (customer's zone) */
  expected_finalization_date: string | null;
  /** when an open invoice is finalized (a draft: the end of its grace period) */
  finalize_at: Date | null;
  customer: CustomerViewData;
  fees: Fee[];
  amounts: InvoiceAmounts;
  applied_taxes: InvoiceAppliedTax[];
  credits: InvoiceCredit[];
  metadata: InvoiceMetadata[];
  finalizing: FinalizationPlan | null;
  /**
   * Progressive billing (domain/progressive-billing.ts): the credit this invoice takes from the
   * latest progressive invoice of its subscriptions' periods (decided when it is stored, kept by
   * refreshes and finalization), and, on a progressive invoice, the thresholds it was issued for.
   */
  progressive_credit?: ProgressiveCredit | null;
  applied_usage_thresholds?: AppliedUsageThreshold[];
  /** a one-off invoice's own choice of custom sections (Lago's invoice_custom_section; absent: the customer's) */
  custom_section_choice?: SectionChoiceRecord | null;
  /** a credit invoice's resource's choice (its wallet transaction's, or its wallet's; absent: the customer's) */
  section_resource?: SectionChoiceRecord | null;
  /** the custom sections it shows, fixed when it is finalized (absent: finalized before they were kept; its document shows the customer's current ones) */
  applied_custom_sections?: AppliedCustomSection[];
  /** what credit notes offset of it (deducted from what is due), and the notes applied (each once) */
  offset_amount_cents?: number;
  applied_credit_notes?: string[];
  /** when it was voided (POST /invoices/{id}/void) */
  voided_at?: Date | null;
  /** the void issued credit notes for it (then the wallets it took from are not credited back) */
  voided_with_credit_note?: boolean;
  /** when its becoming overdue was announced (billing.invoicing.invoice.payment_overdue): set once, absent before */
  payment_overdue_announced_at?: Date | null;
  /** incremented by every change: a draft is rewritten only from the revision it was read at */
  revision: number;
  created_at: Date;
  updated_at: Date;
}

/** The line identity an invoice bills: a subscription's billing entry. */
export const lineKey = (line: { subscription_id: string; reason: SubscriptionInvoicingReason; at: Date }) =>
  `${line.subscription_id}|${line.reason}|${line.at.toISOString()}`;

/**
 * The credit an invoice takes from progressive invoices: in total (amount, fees, which invoices it
 * came from), and per subscription (`parts`: pricing's input, one credit per subscription's latest
 * progressive invoice, each capped at that subscription's charges). Invoices stored before `parts`
 * price the total as one credit.
 */
export interface ProgressiveCredit extends ProgressiveBillingCreditInput {
  progressive_invoice_ids: string[];
  parts?: ProgressiveCreditPart[];
}

/** One subscription's progressive credit on an invoice (subscription null: kept before parts were, any of its charges). */
export interface ProgressiveCreditPart extends ProgressiveBillingCreditInput {
  subscription_id: string | null;
  progressive_invoice_id: string;
}

/**
 * The per-subscription credits of an invoice's progressive credit, as pricing applies them. An
 * invoice stored before they were kept has its total only: one part when it came from one
 * progressive invoice, else null (priced as one credit over all its charges, and its excess cannot
 * be told apart).
 */
export function progressiveCreditParts(credit: ProgressiveCredit): ProgressiveCreditPart[] | null {
  if (credit.parts) return credit.parts;
  if (credit.progressive_invoice_ids.length !== 1) return null;
  return [
    {
      subscription_id: null,
      progressive_invoice_id: credit.progressive_invoice_ids[0]!,
      amount_cents: credit.amount_cents,
      previous_fees: credit.previous_fees,
    },
  ];
}

/** A usage threshold a progressive invoice was issued for (Lago's AppliedUsageThreshold). */
export interface AppliedUsageThreshold {
  lifetime_usage_amount_cents: number;
  created_at: Date;
  usage_threshold: {
    svc_id: string;
    threshold_display_name: string | null;
    amount_cents: number;
    recurring: boolean;
    created_at: string | null;
    updated_at: string | null;
  };
}
