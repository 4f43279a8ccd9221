import { Schema, type Connection, type Model } from "mongoose";

/**
 * Payment requests, keyed by their svc id (a random UUID: each POST is a new request), with their
 * events in an embedded outbox (written by the same insert or update as the change).
 */
const paymentRequestSchema = new Schema(
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
    snapshot: { customer: Buffer, invoices: [Buffer] },
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

export function registerPaymentRequestModel(connection: Connection): Model<any> {
  return connection.models.PaymentRequest ?? connection.model("PaymentRequest", paymentRequestSchema, "payment_requests");
}
