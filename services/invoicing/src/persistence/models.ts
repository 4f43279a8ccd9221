import { Schema, type Connection } from "mongoose";

const mixed = Schema.Types.Mixed;

/** Read copies of the catalog's subscriptions, with this service's billing state. */
const subscriptionSchema = new Schema(
  { _id: String, organization_id: String, subscription: mixed, plan: mixed, sandbox: Boolean, version: Number, next_billing_at: Date },
  { versionKey: false, minimize: false, collection: "subscriptions" },
);
// The billing scheduler's due list (ordinary organizations) and a test clock's (one organization).
// Natural queries for real MongoDB; on the test server they scan, which the copies' size allows.
subscriptionSchema.index({ next_billing_at: 1, sandbox: 1 });
subscriptionSchema.index({ organization_id: 1, next_billing_at: 1 });
subscriptionSchema.index({ organization_id: 1, "subscription.external_id": 1 });

/** Read copies of the customer service's customers. */
const customerSchema = new Schema(
  { _id: String, organization_id: String, external_id: String, customer: mixed, version: Number },
  { versionKey: false, minimize: false, collection: "customers" },
);
customerSchema.index({ organization_id: 1, external_id: 1 });

const invoiceSchema = new Schema(
  {
    _id: String, organization_id: String, customer_id: String, external_customer_id: String, billed_at: Date, reason: String,
    status: String, finalize_at: Date, sandbox: Boolean, lines: mixed, view: mixed, issuing_date: String,
    sequences: mixed, created_at: Date, updated_at: Date, outbox: [mixed],
  },
  { versionKey: false, minimize: false, collection: "invoices" },
);
invoiceSchema.index({ organization_id: 1, created_at: -1, _id: -1 });
invoiceSchema.index({ organization_id: 1, external_customer_id: 1, created_at: -1 });
invoiceSchema.index({ status: 1, finalize_at: 1, sandbox: 1 });
invoiceSchema.index({ organization_id: 1, status: 1, finalize_at: 1 });

/** Numbering: `{_id: scope, last, last_invoice}` — the last number given and the invoice it went to. */
const counterSchema = new Schema({ _id: String, last: Number, last_invoice: String }, { versionKey: false, collection: "counters" });

export function registerModels(connection: Connection) {
  return {
    subscriptions: connection.model("SubscriptionCopy", subscriptionSchema),
    customers: connection.model("CustomerCopy", customerSchema),
    invoices: connection.model("Invoice", invoiceSchema),
    counters: connection.model("InvoiceCounter", counterSchema),
  };
}

export type Models = ReturnType<typeof registerModels>;
