import { Schema, type Connection } from "mongoose";
import type { Envelope } from "@billing/bus";
import { docModel } from "@billing/mongo";
import type { Payment } from "../domain/payment";
import type { ChargeResult, RefundResult } from "../peers/payment-provider";

/** A stored payment: its fields, with its id as `_id`, its sweep time and its embedded outbox. */
export interface PaymentDoc extends Omit<Payment, "id"> {
  _id: string;
  /** system time after which the sweeper finishes it while unapplied */
  sweep_at?: Date;
  outbox?: Envelope[];
}

/** A payment as the domain sees it. */
export const toPayment = ({ _id, sweep_at: _sweep, outbox: _outbox, ...rest }: PaymentDoc): Payment => ({
  ...rest,
  id: _id,
});

/** A charge (or, `refund <key>`, a refund) of the sandbox provider, by idempotency key; `at`: when a refund was first answered. */
export interface SandboxChargeDoc {
  _id: string;
  result: ChargeResult | RefundResult;
  at?: Date;
}

/** Payments, keyed by their svc id (a provider attempt's id is derived from its invoice and attempt: one per pair). */
const paymentSchema = new Schema<PaymentDoc>(
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
// the refund sweeper's overpayments still to give back (a plain index: mongo-compat.md rule 4 allows
// no sparse one; the payments without an overpayment share its null entry)
paymentSchema.index({ overpayment_status: 1 });

/** The sandbox provider's charges, keyed by idempotency key (what a real provider would keep on its side). */
// the sandbox provider's charges and refunds by idempotency key (`at`: when a refund was first answered)
const sandboxChargeSchema = new Schema<SandboxChargeDoc>(
  { _id: String, result: Schema.Types.Mixed, at: Date },
  { versionKey: false },
);

export function registerModels(connection: Connection) {
  return {
    payments: docModel(connection, "Payment", paymentSchema, { collection: "payments", reuse: true }),
    sandboxCharges: docModel(connection, "SandboxCharge", sandboxChargeSchema, {
      collection: "sandbox_charges",
      reuse: true,
    }),
  };
}

export type Models = ReturnType<typeof registerModels>;
