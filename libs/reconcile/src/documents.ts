/**
 * The stored documents reconciliation reads, as the services write them (only the fields it uses).
 * Each mirrors a service's persistence layer; a field that documents written before it existed lack
 * is optional here, and the checks read it as the service does (its default).
 */
import type { FeeType } from "@billing/pricing";

// ---------------------------------------------------------------- wallet service (`<prefix>_wallet`)

/** One transaction's fate in a ledger move (services/wallet/src/domain/wallet.ts, LedgerEntry). */
export interface LedgerEntryDoc {
  tx: string;
  seq: number | null;
  amount_cents: number;
  failure: string | null;
}

/** `wallets`: a wallet with its ledger head (services/wallet/src/persistence/models.ts). */
export interface WalletDoc {
  _id: string;
  organization_id: string;
  customer_id: string;
  status: string;
  currency: string;
  rate_amount: string;
  balance_cents: number;
  consumed_amount_cents: number;
  /** absent before the wallet's first movement */
  ledger?: { seq: number; move?: string; block: LedgerEntryDoc[] } | null;
  created_at: Date;
  updated_at: Date;
}

/** `wallet_transactions`: the ledger; `sequence` is set once, when the transaction settles. */
export interface WalletTransactionDoc {
  _id: string;
  organization_id: string;
  wallet_id: string;
  status: "pending" | "settled" | "failed";
  transaction_status: "purchased" | "granted" | "voided" | "invoiced";
  transaction_type: "inbound" | "outbound";
  amount_cents: number;
  void_remaining?: boolean;
  invoice_id: string | null;
  voided_invoice_id?: string | null;
  credit_note_id?: string | null;
  invoice_requires_successful_payment?: boolean;
  /** absent (or null) until settled */
  sequence?: number | null;
  failure?: string | null;
  created_at: Date;
  settled_at?: Date | null;
  failed_at?: Date | null;
}

// ---------------------------------------------------------------- invoicing service (`<prefix>_invoicing`)

export interface TaxDoc {
  code: string;
  rate: string | number;
}

/** A fee embedded in its invoice (services/invoicing/src/domain/invoice.ts, Fee). */
export interface InvoiceFeeDoc {
  id: string;
  fee_type: FeeType;
  amount_cents: number;
  /** the fee's share of coupons and progressive credits (a decimal string), once priced */
  precise_coupons_amount_cents?: string;
  taxes_amount_cents?: number;
  total_amount_cents?: number;
  taxes?: TaxDoc[];
  applied_taxes?: Array<{ tax_code: string; tax_name: string | null; tax_rate: string; amount_cents: number }>;
}

/** A credit on an invoice: a coupon's (applied_coupon_id set) or a credit note's (item.type `credit_note`). */
export interface InvoiceCreditDoc {
  id: string;
  applied_coupon_id: string;
  amount_cents: number;
  currency: string;
  item: { id: string; type: string; code: string; name: string };
}

export interface InvoiceAmountsDoc {
  fees_amount_cents: number;
  progressive_billing_credit_amount_cents: number;
  coupons_amount_cents: number;
  sub_total_excluding_taxes_amount_cents: number;
  taxes_amount_cents: number;
  sub_total_including_taxes_amount_cents: number;
  credit_notes_amount_cents: number;
  prepaid_credit_amount_cents: number;
  total_amount_cents: number;
}

export type InvoiceStatus = "generating" | "draft" | "finalized" | "closed" | "voided" | "deleted";
export type InvoiceType = "subscription" | "credit" | "progressive_billing" | "one_off" | "advance_charges";

/** `invoices`: one document per invoice, fees embedded. */
export interface InvoiceDoc {
  _id: string;
  organization_id: string;
  customer_id: string;
  billing_entity_code?: string | null;
  invoice_type: InvoiceType;
  status: InvoiceStatus;
  payment_status: "pending" | "succeeded" | "failed";
  number: string;
  sequential_id?: number | null;
  /** the numbers the gap-free counters gave it (services/invoicing/src/persistence/invoice-numbers.ts) */
  sequences?: { entity?: number; customer?: number } | null;
  total_paid_amount_cents?: number;
  applied_payments?: string[];
  /** succeeded provider payments' parts it could not take (absent before overpayments were recorded) */
  overpayments?: Array<{ payment_id: string; amount_cents: number }>;
  offset_amount_cents?: number;
  amounts: InvoiceAmountsDoc;
  fees: InvoiceFeeDoc[];
  credits?: InvoiceCreditDoc[];
  progressive_credit?: { amount_cents: number } | null;
  wallet_transaction_id?: string | null;
  created_at: Date;
  updated_at: Date;
}

/** `counters`: one numbering scope (`entity:<org>:<entity>` or `customer:<org>:<entity>:<customer>`). */
export interface InvoiceCounterDoc {
  _id: string;
  last: number;
  /** the invoices its last move numbered, from `first` */
  block?: { first: number; invoices: string[] } | null;
  /** single-invoice moves written before blocks */
  last_invoice?: string | null;
}

/** `credit_notes` (services/invoicing/src/domain/credit-note.ts). */
export interface CreditNoteDoc {
  _id: string;
  organization_id: string;
  customer_id: string;
  invoice_id: string;
  number: string;
  credit_status: string | null;
  refund_status: string | null;
  total_amount_cents: number;
  credit_amount_cents: number;
  refund_amount_cents: number;
  balance_amount_cents: number;
  consumptions?: Array<{ invoice_id: string; amount_cents: number }>;
  created_at: Date;
  updated_at: Date;
}

// ---------------------------------------------------------------- payment service (`<prefix>_payment`)

/** `payments` (services/payment/src/domain/payment.ts). */
export interface PaymentDoc {
  _id: string;
  organization_id: string;
  invoice_id: string;
  amount_cents: number;
  type: "manual" | "provider";
  payment_status: "pending" | "processing" | "succeeded" | "failed";
  provider?: { code: string; type: string; customer_id: string | null } | null;
  attempt?: number;
  applied?: boolean;
  /** a provider success the invoice could not take (it was paid or voided meanwhile): absent = 0 */
  overpaid_amount_cents?: number;
  overpayment_status?: string | null;
  reference?: string | null;
  created_at: Date;
  updated_at: Date;
}

/** `refunds` (services/payment/src/domain/refund.ts): one per credit note, id derived from the note's. */
export interface RefundDoc {
  _id: string;
  organization_id: string;
  /** a credit note's refund (absent on refunds stored before overpayments were refunded), or a payment's overpaid part */
  kind?: "credit_note" | "overpayment";
  /** the note refunded (an overpayment's refund: its payment's id) */
  credit_note_id: string;
  invoice_id: string;
  payment_id: string;
  amount_cents: number;
  status: "pending" | "succeeded" | "failed";
  applied?: boolean;
  created_at: Date;
  updated_at: Date;
}

// ---------------------------------------------------------------- catalog service (`<prefix>_catalog`)

/** `applied_coupons`: `credits` is the append-only ledger of what invoices took. */
export interface AppliedCouponDoc {
  _id: string;
  organization_id: string;
  coupon_id: string;
  customer_id: string;
  status: string;
  amount_cents: number | null;
  amount_currency: string | null;
  percentage_rate: string | null;
  frequency: "once" | "recurring" | "forever";
  frequency_duration: number | null;
  amount_cents_remaining: number | null;
  frequency_duration_remaining: number | null;
  credits?: Array<{ id: string; invoice_id: string; amount_cents: number; amount_currency: string; created_at: Date }>;
  /** voided invoices whose credit was given back (absent before any) */
  recredited_invoice_ids?: string[];
  created_at: Date;
  updated_at: Date;
}

/** `coupons`: only what tells how an applied coupon is consumed. */
export interface CouponDoc {
  _id: string;
  organization_id: string;
  code: string;
  coupon_type: "fixed_amount" | "percentage";
}

// ---------------------------------------------------------------- customer service (`<prefix>_customer`)

/** `customers`: only the payment provider settings (Lago's billing_configuration). */
export interface CustomerDoc {
  _id: string;
  organization_id: string;
  external_id: string;
  billing_configuration?: {
    payment_provider?: string | null;
    payment_provider_code?: string | null;
    provider_customer_id?: string | null;
  } | null;
  deleted_at?: Date | null;
}

/** `organizations`. */
export interface OrganizationDoc {
  _id: string;
  name?: string;
}

/** Everything the checks read of one organization. */
export interface OrganizationRecords {
  wallets: WalletDoc[];
  transactions: WalletTransactionDoc[];
  invoices: InvoiceDoc[];
  counters: InvoiceCounterDoc[];
  creditNotes: CreditNoteDoc[];
  payments: PaymentDoc[];
  refunds: RefundDoc[];
  appliedCoupons: AppliedCouponDoc[];
  coupons: CouponDoc[];
  customers: CustomerDoc[];
}
