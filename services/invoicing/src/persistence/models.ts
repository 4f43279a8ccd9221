import { Schema, type Connection } from "mongoose";

const mixed = Schema.Types.Mixed;

/** Read copies of the catalog's subscriptions, with this service's billing schedule. */
const subscriptionSchema = new Schema(
  {
    _id: String, organization_id: String, customer_id: String, subscription: mixed, plan: mixed, sandbox: Boolean, version: Number,
    next_billing_at: Date, next_billing_reason: String, last_billed_at: Date, last_billed_reason: String,
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
const customerSchema = new Schema(
  { _id: String, organization_id: String, external_id: String, customer: mixed, version: Number },
  { versionKey: false, minimize: false, collection: "customers" },
);
customerSchema.index({ organization_id: 1, external_id: 1 });

/**
 * current_usage's lookups, keyed by `_id` (one read each, fast on every server, read in parallel):
 * organization|external subscription id → the newest copy of that external id (subscription and
 * plan); organization|external customer id → the customer's copy.
 */
const usageKeySchema = new Schema(
  { _id: String, subscription_id: String, customer_id: String, external_customer_id: String, subscription: mixed, plan: mixed, version: Number },
  { versionKey: false, minimize: false, collection: "usage_keys" },
);
const customerKeySchema = new Schema(
  { _id: String, customer_id: String, customer: mixed, version: Number },
  { versionKey: false, minimize: false, collection: "customer_keys" },
);

/**
 * Customers whose due billing waited for their copy (`_id` = organization|customer): the customer's
 * event, on another stream, bills it on arrival (keyed: one read per customer event).
 */
const waitingSchema = new Schema({ _id: String }, { versionKey: false, collection: "waiting_customers" });

/** Invoices: one document each, fees embedded, events in its outbox. */
const invoiceSchema = new Schema(
  {
    _id: String, organization_id: String, customer_id: String, external_customer_id: String, billing_entity_code: String, sandbox: Boolean,
    invoice_type: String, billed_at: Date, part: Number, lines: mixed, status: String, payment_status: String, number: String,
    total_paid_amount_cents: Number, applied_payments: [String], overpayments: mixed,
    sequential_id: Number, currency: String, issuing_date: String, payment_due_date: String, net_payment_term: Number,
    expected_finalization_date: String, finalize_at: Date, customer: mixed, fees: mixed, amounts: mixed, applied_taxes: mixed,
    credits: mixed, metadata: mixed, finalizing: mixed, revision: Number, sequences: mixed, created_at: Date, updated_at: Date, wallet_transaction_id: String,
    payment_overdue_announced_at: Date,
    progressive_credit: mixed, applied_usage_thresholds: mixed, applied_custom_sections: mixed, custom_section_choice: mixed, section_resource: mixed,
    voided_at: Date, voided_with_credit_note: Boolean, offset_amount_cents: Number, applied_credit_notes: [String],
    outbox: [mixed],
  },
  { versionKey: false, minimize: false, collection: "invoices" },
);
invoiceSchema.index({ organization_id: 1, created_at: -1, billed_at: -1, _id: -1 });
invoiceSchema.index({ organization_id: 1, "fees.id": 1 }); // GET /fees/{id} of an invoice's fee
invoiceSchema.index({ organization_id: 1, external_customer_id: 1, created_at: -1 });
invoiceSchema.index({ organization_id: 1, external_customer_id: 1, "lines.external_subscription_id": 1, billed_at: -1 });
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
invoiceSchema.index({ organization_id: 1, status: 1, payment_overdue_announced_at: 1, payment_status: 1, payment_due_date: 1 });

/** Numbering: `{_id: scope, last, last_invoice}` — the last number given and the invoice it went to. */
const counterSchema = new Schema(
  { _id: String, last: Number, block: { first: Number, invoices: [String] }, last_invoice: String },
  { versionKey: false, collection: "counters" },
);

/**
 * Progressive billing's lifetime usage per external subscription (`_id` = organization|external
 * subscription id, one keyed read per check): the imported historical usage (PUT lifetime_usage).
 */
const lifetimeUsageSchema = new Schema(
  { _id: String, organization_id: String, external_subscription_id: String, historical_usage_amount_cents: Number, created_at: Date, updated_at: Date },
  { versionKey: false, collection: "lifetime_usages" },
);

/**
 * The organizations that have (or had) a subscription copy with usage thresholds, `_id` =
 * organization id: a check of ingested usage reads one of these by `_id` and stops there for an
 * organization that never billed progressively (most), instead of reading every subscription it
 * touched. Never removed (a stale mark costs only the read it saves).
 */
const progressiveOrganizationSchema = new Schema({ _id: String, at: Date }, { versionKey: false, collection: "progressive_organizations" });

export function registerModels(connection: Connection) {
  return {
    subscriptions: connection.model("SubscriptionCopy", subscriptionSchema),
    customers: connection.model("CustomerCopy", customerSchema),
    usageKeys: connection.model("UsageKey", usageKeySchema),
    customerKeys: connection.model("CustomerKey", customerKeySchema),
    waiting: connection.model("WaitingCustomer", waitingSchema),
    invoices: connection.model("Invoice", invoiceSchema),
    counters: connection.model("InvoiceCounter", counterSchema),
    lifetimeUsages: connection.model("LifetimeUsage", lifetimeUsageSchema),
    progressiveOrganizations: connection.model("ProgressiveOrganization", progressiveOrganizationSchema),
  };
}

export type Models = ReturnType<typeof registerModels>;
