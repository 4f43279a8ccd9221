import { Schema, type Connection } from "mongoose";
import type { Envelope } from "@billing/bus";
import { docModel, type DocModel } from "@billing/mongo";
import type { PaymentRequest } from "../domain/payment-request";

/** A lean read gives BSON Binary ({ buffer }) for a Buffer field. */
export type Bytes = Buffer | { buffer: Uint8Array };

/**
 * The customer and the invoices as they were answered: each reply's protobuf bytes. Requests stored
 * before the snapshot was typed hold each reply as JSON text instead (`customer_json`,
 * `invoices_json`); `snapshotOf` (payment-request-repository.ts) reads both.
 */
export type StoredSnapshot =
  { customer: Bytes; invoices: Bytes[] } | { customer_json: string; invoices_json: string[] };

/** A stored payment request: its fields, with its id as `_id`, its snapshot as protobuf bytes and its embedded outbox. */
export interface PaymentRequestDoc extends Omit<PaymentRequest, "id" | "snapshot"> {
  _id: string;
  snapshot: StoredSnapshot;
  outbox?: Envelope[];
}

/**
 * Payment requests, keyed by their svc id (a random UUID: each POST is a new request), with their
 * events in an embedded outbox (written by the same insert or update as the change).
 */
const paymentRequestSchema = new Schema<PaymentRequestDoc>(
  {
    _id: String,
    organization_id: { type: String, required: true },
    customer_id: String,
    external_customer_id: String,
    email: String,
    invoice_ids: [String],
    amount_cents: Number,
    currency: String,
    payment_status: String,
    /**
     * the customer and the invoices as they were answered when the request was made: each reply's
     * protobuf bytes (no user keys in field names; read back by the message type)
     */
    snapshot: { customer: Buffer, invoices: [Buffer], customer_json: String, invoices_json: [String] },
    created_at: Date,
    updated_at: Date,
    outbox: [Schema.Types.Mixed],
  },
  { versionKey: false, minimize: false },
);
// lists (newest first, `_id` as tiebreaker; by customer or payment status): indexes on real
// MongoDB, scans on the test server (reads by id go through `_id`, fast on both)
paymentRequestSchema.index({ organization_id: 1, created_at: -1, _id: -1 });
paymentRequestSchema.index({ organization_id: 1, external_customer_id: 1, created_at: -1, _id: -1 });
paymentRequestSchema.index({ organization_id: 1, payment_status: 1, created_at: -1, _id: -1 });

export function registerPaymentRequestModel(connection: Connection): DocModel<PaymentRequestDoc> {
  return docModel(connection, "PaymentRequest", paymentRequestSchema, { collection: "payment_requests", reuse: true });
}
