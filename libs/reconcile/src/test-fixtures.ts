import type { CheckContext } from "./breach";
import type {
  AppliedCouponDoc,
  CouponDoc,
  CreditNoteDoc,
  CustomerDoc,
  InvoiceAmountsDoc,
  InvoiceCounterDoc,
  InvoiceDoc,
  InvoiceFeeDoc,
  OrganizationRecords,
  PaymentDoc,
  RefundDoc,
  WalletDoc,
  WalletTransactionDoc,
} from "./documents";

/** Documents as the services store them, for the checks' unit tests (an hour old: outside any grace period). */
export const ORG = "org_1";
export const NOW = new Date("2024-03-01T12:00:00Z");
export const OLD = new Date("2024-03-01T11:00:00Z");
export const ctx: CheckContext = { organizationId: ORG, now: NOW, graceMs: 60_000 };

export const wallet = (o: Partial<WalletDoc> = {}): WalletDoc => ({
  _id: "w1",
  organization_id: ORG,
  customer_id: "c1",
  status: "active",
  currency: "EUR",
  rate_amount: "1",
  balance_cents: 0,
  consumed_amount_cents: 0,
  ledger: { seq: 0, block: [] },
  created_at: OLD,
  updated_at: OLD,
  ...o,
});

export const tx = (o: Partial<WalletTransactionDoc> = {}): WalletTransactionDoc => ({
  _id: "t1",
  organization_id: ORG,
  wallet_id: "w1",
  status: "settled",
  transaction_status: "granted",
  transaction_type: "inbound",
  amount_cents: 1000,
  invoice_id: null,
  sequence: 1,
  created_at: OLD,
  settled_at: OLD,
  ...o,
});

export const amounts = (o: Partial<InvoiceAmountsDoc> = {}): InvoiceAmountsDoc => ({
  fees_amount_cents: 0,
  progressive_billing_credit_amount_cents: 0,
  coupons_amount_cents: 0,
  sub_total_excluding_taxes_amount_cents: 0,
  taxes_amount_cents: 0,
  sub_total_including_taxes_amount_cents: 0,
  credit_notes_amount_cents: 0,
  prepaid_credit_amount_cents: 0,
  total_amount_cents: 0,
  ...o,
});

export const fee = (o: Partial<InvoiceFeeDoc> = {}): InvoiceFeeDoc => ({
  id: "f1",
  fee_type: "subscription",
  amount_cents: 10_000,
  precise_coupons_amount_cents: "0",
  taxes_amount_cents: 0,
  total_amount_cents: 10_000,
  taxes: [],
  ...o,
});

/** A finalized €100 invoice, untaxed, nothing taken off, unpaid. */
export const invoice = (o: Partial<InvoiceDoc> = {}): InvoiceDoc => ({
  _id: "i1",
  organization_id: ORG,
  customer_id: "c1",
  billing_entity_code: "default",
  invoice_type: "subscription",
  status: "finalized",
  payment_status: "pending",
  number: "ACM-001-001",
  sequential_id: 1,
  sequences: { entity: 1, customer: 1 },
  total_paid_amount_cents: 0,
  amounts: amounts({
    fees_amount_cents: 10_000,
    sub_total_excluding_taxes_amount_cents: 10_000,
    sub_total_including_taxes_amount_cents: 10_000,
    total_amount_cents: 10_000,
  }),
  fees: [fee()],
  credits: [],
  created_at: OLD,
  updated_at: OLD,
  ...o,
});

export const counter = (o: Partial<InvoiceCounterDoc> & Pick<InvoiceCounterDoc, "_id">): InvoiceCounterDoc => ({
  last: 1,
  block: null,
  ...o,
});

export const payment = (o: Partial<PaymentDoc> = {}): PaymentDoc => ({
  _id: "p1",
  organization_id: ORG,
  invoice_id: "i1",
  amount_cents: 10_000,
  type: "manual",
  payment_status: "succeeded",
  applied: true,
  created_at: OLD,
  updated_at: OLD,
  ...o,
});

export const note = (o: Partial<CreditNoteDoc> = {}): CreditNoteDoc => ({
  _id: "cn1",
  organization_id: ORG,
  customer_id: "c1",
  invoice_id: "i1",
  number: "ACM-001-001-CN001",
  credit_status: "available",
  refund_status: null,
  total_amount_cents: 0,
  credit_amount_cents: 0,
  refund_amount_cents: 0,
  balance_amount_cents: 0,
  consumptions: [],
  created_at: OLD,
  updated_at: OLD,
  ...o,
});

export const refund = (o: Partial<RefundDoc> = {}): RefundDoc => ({
  _id: "r1",
  organization_id: ORG,
  credit_note_id: "cn1",
  invoice_id: "i1",
  payment_id: "p1",
  amount_cents: 500,
  status: "succeeded",
  applied: true,
  created_at: OLD,
  updated_at: OLD,
  ...o,
});

export const appliedCoupon = (o: Partial<AppliedCouponDoc> = {}): AppliedCouponDoc => ({
  _id: "ac1",
  organization_id: ORG,
  coupon_id: "cp1",
  customer_id: "c1",
  status: "active",
  amount_cents: 1_000,
  amount_currency: "EUR",
  percentage_rate: null,
  frequency: "once",
  frequency_duration: null,
  amount_cents_remaining: 1_000,
  frequency_duration_remaining: null,
  credits: [],
  created_at: OLD,
  updated_at: OLD,
  ...o,
});

export const coupon = (o: Partial<CouponDoc> = {}): CouponDoc => ({
  _id: "cp1",
  organization_id: ORG,
  code: "welcome",
  coupon_type: "fixed_amount",
  ...o,
});

export const customer = (o: Partial<CustomerDoc> = {}): CustomerDoc => ({
  _id: "c1",
  organization_id: ORG,
  external_id: "acme",
  billing_configuration: {},
  ...o,
});

export const records = (o: Partial<OrganizationRecords> = {}): OrganizationRecords => ({
  wallets: [],
  transactions: [],
  invoices: [],
  counters: [],
  creditNotes: [],
  payments: [],
  refunds: [],
  appliedCoupons: [],
  coupons: [],
  customers: [],
  ...o,
});
