import { Schema, type Connection } from "mongoose";
import type { Envelope } from "@billing/bus";
import { docModel, type OrganizationMarkDoc } from "@billing/mongo";
import type { CustomerCopy, SubscriptionCopy } from "../domain/copies";
import type { Invoice } from "../domain/invoice";

const mixed = Schema.Types.Mixed;

type Schedule = "next_billing_at" | "next_billing_reason" | "last_billed_at" | "last_billed_reason";

/**
 * A stored subscription copy: the copy with its id as `_id` and its customer's id beside it (for
 * the due lists). Copies stored before a schedule was computed lack it: toSubscriptionCopy gives
 * them none.
 */
export interface SubscriptionCopyDoc
  extends Omit<SubscriptionCopy, "id" | Schedule>, Partial<Pick<SubscriptionCopy, Schedule>> {
  _id: string;
  customer_id: string;
}

export const toSubscriptionCopy = ({
  _id,
  customer_id: _customer,
  ...rest
}: SubscriptionCopyDoc): SubscriptionCopy => ({
  next_billing_at: null,
  next_billing_reason: null,
  last_billed_at: null,
  last_billed_reason: null,
  ...rest,
  id: _id,
});

/** A stored customer copy, its id as `_id` and its external id beside it. */
export interface CustomerCopyDoc extends Omit<CustomerCopy, "id"> {
  _id: string;
  external_id: string;
}

export const toCustomerCopy = ({ _id, external_id: _external, ...rest }: CustomerCopyDoc): CustomerCopy => ({
  ...rest,
  id: _id,
});

/** current_usage's key of an external subscription (`_id` = organization|external subscription id): its newest copy. */
export interface UsageKeyDoc {
  _id: string;
  subscription_id: string;
  customer_id: string;
  external_customer_id: string;
  subscription: SubscriptionCopy["subscription"];
  plan: SubscriptionCopy["plan"];
  version: number;
}

/** The key of an external customer id (`_id` = organization|external customer id): its copy. */
export interface CustomerKeyDoc {
  _id: string;
  customer_id: string;
  customer: CustomerCopy["customer"];
  version: number;
}

/** A customer whose due billing waits for its copy (`_id` = organization|customer). */
export interface WaitingCustomerDoc {
  _id: string;
  /** always 1: the upsert that marks it needs a field to set */
  at: number;
}

/**
 * A stored invoice: the invoice with its id as `_id`, the sequences numbering gave it, whether its
 * PDF was announced, and its embedded outbox.
 */
export interface InvoiceDoc extends Omit<Invoice, "id"> {
  _id: string;
  /** the numbers its counters gave it (set once each, by InvoiceNumbers) */
  sequences?: { entity?: number; customer?: number };
  /** its first PDF was announced (invoice.generated) */
  document_announced?: boolean;
  outbox?: Envelope[];
}

/** An invoice as the domain sees it. */
export const toInvoice = ({
  _id,
  sequences: _sequences,
  document_announced: _announced,
  outbox: _outbox,
  ...rest
}: InvoiceDoc): Invoice => ({ ...rest, id: _id });

/** A numbering counter: the last number given, and the invoices its last move numbered. */
export interface InvoiceCounterDoc {
  _id: string;
  last: number;
  block?: { first: number; invoices: string[] };
  /** the single-invoice moves written before blocks */
  last_invoice?: string | null;
}

/** An external subscription's imported historical usage (`_id` = organization|external subscription id). */
export interface LifetimeUsageDoc {
  _id: string;
  organization_id: string;
  external_subscription_id: string;
  historical_usage_amount_cents?: number;
  created_at: Date;
  updated_at: Date;
}

/** Read copies of the catalog's subscriptions, with this service's billing schedule. */
const subscriptionSchema = new Schema<SubscriptionCopyDoc>(
  {
    _id: String,
    organization_id: String,
    customer_id: String,
    subscription: mixed,
    plan: mixed,
    sandbox: Boolean,
    version: Number,
    next_billing_at: Date,
    next_billing_reason: String,
    last_billed_at: Date,
    last_billed_reason: String,
  },
  { versionKey: false, minimize: false, collection: "subscriptions" },
);
// What is due (natural queries for real MongoDB; the test server scans, which the copies' size allows):
// the scheduler's pass over ordinary organizations, a test clock's organization, one customer (a
// subscription event bills what it made due at once), and the start of a trial across upgrades.
subscriptionSchema.index({ next_billing_at: 1, sandbox: 1 });
subscriptionSchema.index({ organization_id: 1, next_billing_at: 1 });
subscriptionSchema.index({ organization_id: 1, customer_id: 1, next_billing_at: 1 });
subscriptionSchema.index({ organization_id: 1, "subscription.external_id": 1 });

/** Read copies of the customer service's customers. */
const customerSchema = new Schema<CustomerCopyDoc>(
  { _id: String, organization_id: String, external_id: String, customer: mixed, version: Number },
  { versionKey: false, minimize: false, collection: "customers" },
);
customerSchema.index({ organization_id: 1, external_id: 1 });

/**
 * current_usage's lookups, keyed by `_id` (one read each, fast on every server, read in parallel):
 * organization|external subscription id → the newest copy of that external id (subscription and
 * plan); organization|external customer id → the customer's copy.
 */
const usageKeySchema = new Schema<UsageKeyDoc>(
  {
    _id: String,
    subscription_id: String,
    customer_id: String,
    external_customer_id: String,
    subscription: mixed,
    plan: mixed,
    version: Number,
  },
  { versionKey: false, minimize: false, collection: "usage_keys" },
);
const customerKeySchema = new Schema<CustomerKeyDoc>(
  { _id: String, customer_id: String, customer: mixed, version: Number },
  { versionKey: false, minimize: false, collection: "customer_keys" },
);

/**
 * Customers whose due billing waited for their copy (`_id` = organization|customer): the customer's
 * event, on another stream, bills it on arrival (keyed: one read per customer event).
 */
const waitingSchema = new Schema<WaitingCustomerDoc>(
  { _id: String, at: Number },
  { versionKey: false, collection: "waiting_customers" },
);

/** Invoices: one document each, fees embedded, events in its outbox. */
const invoiceSchema = new Schema<InvoiceDoc>(
  {
    _id: String,
    organization_id: String,
    customer_id: String,
    external_customer_id: String,
    billing_entity_code: String,
    sandbox: Boolean,
    invoice_type: String,
    billed_at: Date,
    part: Number,
    lines: mixed,
    status: String,
    payment_status: String,
    number: String,
    total_paid_amount_cents: Number,
    applied_payments: [String],
    overpayments: mixed,
    sequential_id: Number,
    currency: String,
    issuing_date: String,
    payment_due_date: String,
    net_payment_term: Number,
    expected_finalization_date: String,
    finalize_at: Date,
    customer: mixed,
    fees: mixed,
    amounts: mixed,
    applied_taxes: mixed,
    credits: mixed,
    metadata: mixed,
    finalizing: mixed,
    revision: Number,
    sequences: mixed,
    created_at: Date,
    updated_at: Date,
    wallet_transaction_id: String,
    payment_overdue_announced_at: Date,
    progressive_credit: mixed,
    applied_usage_thresholds: mixed,
    applied_custom_sections: mixed,
    custom_section_choice: mixed,
    section_resource: mixed,
    voided_at: Date,
    voided_with_credit_note: Boolean,
    offset_amount_cents: Number,
    applied_credit_notes: [String],
    document_announced: Boolean,
    outbox: [mixed],
  },
  { versionKey: false, minimize: false, collection: "invoices" },
);
invoiceSchema.index({ organization_id: 1, created_at: -1, billed_at: -1, _id: -1 });
invoiceSchema.index({ organization_id: 1, "fees.id": 1 }); // GET /fees/{id} of an invoice's fee
invoiceSchema.index({ organization_id: 1, external_customer_id: 1, created_at: -1 });
invoiceSchema.index({
  organization_id: 1,
  external_customer_id: 1,
  "lines.external_subscription_id": 1,
  billed_at: -1,
});
invoiceSchema.index({ organization_id: 1, "lines.subscription_id": 1, billed_at: -1 });
// progressive billing: the invoices of an envelope's subscriptions, in one query
invoiceSchema.index({ organization_id: 1, "lines.external_subscription_id": 1, invoice_type: 1 });
// open invoices to finalize: the scheduler's pass, a test clock's organization
invoiceSchema.index({ status: 1, finalize_at: 1, sandbox: 1 });
invoiceSchema.index({ organization_id: 1, status: 1, finalize_at: 1 });
// unpaid finalized invoices whose becoming overdue is not announced yet, by due date: the
// scheduler's pass, a test clock's organization (RunDue, NextDue). Real MongoDB walks these
// (announced_at null = not yet, so paid or announced invoices stay out of the walk); the test
// server (mongo-java-server) uses no index here and scans the invoices.
invoiceSchema.index({ status: 1, payment_overdue_announced_at: 1, payment_status: 1, payment_due_date: 1, sandbox: 1 });
invoiceSchema.index({
  organization_id: 1,
  status: 1,
  payment_overdue_announced_at: 1,
  payment_status: 1,
  payment_due_date: 1,
});

/** Numbering: `{_id: scope, last, last_invoice}` — the last number given and the invoice it went to. */
const counterSchema = new Schema<InvoiceCounterDoc>(
  { _id: String, last: Number, block: { first: Number, invoices: [String] }, last_invoice: String },
  { versionKey: false, collection: "counters" },
);

/**
 * Progressive billing's lifetime usage per external subscription (`_id` = organization|external
 * subscription id, one keyed read per check): the imported historical usage (PUT lifetime_usage).
 */
const lifetimeUsageSchema = new Schema<LifetimeUsageDoc>(
  {
    _id: String,
    organization_id: String,
    external_subscription_id: String,
    historical_usage_amount_cents: Number,
    created_at: Date,
    updated_at: Date,
  },
  { versionKey: false, collection: "lifetime_usages" },
);

/**
 * The organizations that have (or had) a subscription copy with usage thresholds, `_id` =
 * organization id: a check of ingested usage reads one of these by `_id` and stops there for an
 * organization that never billed progressively (most), instead of reading every subscription it
 * touched. Never removed (a stale mark costs only the read it saves).
 */
const progressiveOrganizationSchema = new Schema<OrganizationMarkDoc>(
  { _id: String, at: Date },
  { versionKey: false, collection: "progressive_organizations" },
);

export function registerModels(connection: Connection) {
  return {
    subscriptions: docModel(connection, "SubscriptionCopy", subscriptionSchema),
    customers: docModel(connection, "CustomerCopy", customerSchema),
    usageKeys: docModel(connection, "UsageKey", usageKeySchema),
    customerKeys: docModel(connection, "CustomerKey", customerKeySchema),
    waiting: docModel(connection, "WaitingCustomer", waitingSchema),
    invoices: docModel(connection, "Invoice", invoiceSchema),
    counters: docModel(connection, "InvoiceCounter", counterSchema),
    lifetimeUsages: docModel(connection, "LifetimeUsage", lifetimeUsageSchema),
    progressiveOrganizations: docModel(connection, "ProgressiveOrganization", progressiveOrganizationSchema),
  };
}

export type Models = ReturnType<typeof registerModels>;
