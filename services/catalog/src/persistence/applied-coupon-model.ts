import { Schema, type Connection } from "mongoose";

/**
 * Applied coupons. `reuse_key` is unique per organization: "<coupon id>/<customer id>" for a
 * non-reusable coupon, the applied coupon's id otherwise. `credits` is the append-only ledger of
 * what invoices took (one entry per invoice id, guarded by the update that appends it).
 */
const appliedCouponSchema = new Schema(
  {
    _id: String,
    organization_id: { type: String, required: true },
    coupon_id: { type: String, required: true },
    customer_id: { type: String, required: true },
    external_customer_id: String,
    reuse_key: { type: String, required: true },
    status: String,
    amount_cents: Number,
    amount_currency: String,
    percentage_rate: String,
    frequency: String,
    frequency_duration: Number,
    amount_cents_remaining: Number,
    frequency_duration_remaining: Number,
    credits: [{ _id: false, id: String, invoice_id: String, amount_cents: Number, amount_currency: String, created_at: Date }],
    created_at: Date,
    updated_at: Date,
    terminated_at: Date,
  },
  { versionKey: false, minimize: false, collection: "applied_coupons" },
);
appliedCouponSchema.index({ organization_id: 1, reuse_key: 1 }, { unique: true });
appliedCouponSchema.index({ organization_id: 1, created_at: -1, _id: -1 });
appliedCouponSchema.index({ organization_id: 1, customer_id: 1, status: 1 });
appliedCouponSchema.index({ organization_id: 1, coupon_id: 1, status: 1 });

/** Registers the model on the catalog's connection (before the models are initialized). */
export function registerAppliedCouponModel(connection: Connection) {
  return connection.model("AppliedCoupon", appliedCouponSchema);
}
