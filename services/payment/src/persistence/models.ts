import { Schema, type Connection, type Model } from "mongoose";

/** Payments, keyed by their svc id (a provider attempt's id is derived from its invoice and attempt: one per pair). */
const paymentSchema = new Schema(
  {
    _id: String,
    organization_id: { type: String, required: true },
    customer_id: String,
    external_customer_id: String,
    invoice_id: String,
    invoice_number: String,
    amount_cents: Number,
    currency: String,
    type: String,
    status: String,
    payment_status: String,
    reference: String,
    provider: Schema.Types.Mixed,
    provider_payment_id: String,
    next_action: Schema.Types.Mixed,
    attempt: Number,
    applied: Boolean,
    /** system time after which the sweeper finishes an unapplied payment (not the organization's clock: a test clock may stand anywhere) */
    sweep_at: Date,
    paid_at: String,
    overpaid_amount_cents: Number,
    overpayment_status: String,
    outbox: { type: [Schema.Types.Mixed], default: undefined },
    created_at: Date,
    updated_at: Date,
  },
  { versionKey: false, minimize: false },
);
// lists (newest first, by customer or invoice) and the sweeper's unapplied payments: indexes on real MongoDB, scans on the test server
paymentSchema.index({ organization_id: 1, created_at: -1, _id: -1 });
paymentSchema.index({ organization_id: 1, external_customer_id: 1, created_at: -1 });
paymentSchema.index({ organization_id: 1, invoice_id: 1, attempt: 1 });
paymentSchema.index({ applied: 1, sweep_at: 1 });
// the refund sweeper's overpayments still to give back (sparse: almost every payment has none)
paymentSchema.index({ overpayment_status: 1 }, { sparse: true });

/** The sandbox provider's charges, keyed by idempotency key (what a real provider would keep on its side). */
// the sandbox provider's charges and refunds by idempotency key (`at`: when a refund was first answered)
const sandboxChargeSchema = new Schema({ _id: String, result: Schema.Types.Mixed, at: Date }, { versionKey: false });

export function registerModels(connection: Connection) {
  return {
    payments: connection.models.Payment ?? connection.model("Payment", paymentSchema, "payments"),
    sandboxCharges: connection.models.SandboxCharge ?? connection.model("SandboxCharge", sandboxChargeSchema, "sandbox_charges"),
  } as { payments: Model<any>; sandboxCharges: Model<any> };
}

export type Models = ReturnType<typeof registerModels>;
