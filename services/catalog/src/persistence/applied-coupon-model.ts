import { Schema, type Connection } from "mongoose";
import { docModel } from "@billing/mongo";
import type { AppliedCoupon } from "../domain/applied-coupon";

/**
 * A stored applied coupon: its fields, with its id as `_id`. Applied coupons written by earlier
 * versions may lack `credits` and `terminated_at`: toAppliedCoupon gives them their defaults.
 */
export interface AppliedCouponDoc extends Omit<AppliedCoupon, "id" | "credits" | "terminated_at"> {
  _id: string;
  credits?: AppliedCoupon["credits"];
  terminated_at?: Date | null;
}

/** An applied coupon as the domain sees it. */
export const toAppliedCoupon = ({ _id, ...rest }: AppliedCouponDoc): AppliedCoupon => ({
  ...rest,
  id: _id,
  credits: rest.credits ?? [],
  terminated_at: rest.terminated_at ?? null,
});

/** A new applied coupon as stored. */
export const appliedCouponDocOf = ({ id, ...rest }: AppliedCoupon): AppliedCouponDoc => ({ ...rest, _id: id });

/**
 * Applied coupons. `reuse_key` is unique per organization: "<coupon id>/<customer id>" for a
 * non-reusable coupon, the applied coupon's id otherwise. `credits` is the append-only ledger of
 * what invoices took (one entry per invoice id, guarded by the update that appends it).
 */
const appliedCouponSchema = new Schema<AppliedCouponDoc>(
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
    credits: [
      { _id: false, id: String, invoice_id: String, amount_cents: Number, amount_currency: String, created_at: Date },
    ],
    recredited_invoice_ids: [String],
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
  return docModel(connection, "AppliedCoupon", appliedCouponSchema);
}
