import { Schema, type Connection } from "mongoose";
import type { Envelope } from "@billing/bus";
import { docModel } from "@billing/mongo";
import type { Subscription } from "../domain/subscription";

/** A stored subscription: its fields, with its id as `_id`, its `slot` and its embedded outbox. */
export interface SubscriptionDoc extends Omit<Subscription, "id"> {
  _id: string;
  slot: string;
  outbox?: Envelope[];
}

/**
 * Subscriptions. `slot` is unique per organization: "active:<external_id>" and
 * "pending:<external_id>" while the subscription is current, "closed:<id>" afterwards.
 */
const subscriptionSchema = new Schema<SubscriptionDoc>(
  {
    _id: String,
    organization_id: { type: String, required: true },
    external_id: { type: String, required: true },
    slot: { type: String, required: true },
    customer_id: String,
    external_customer_id: String,
    plan_id: String,
    plan_code: String,
    overridden: Boolean,
    name: String,
    status: String,
    billing_time: String,
    subscription_at: Date,
    started_at: Date,
    initial_started_at: Date,
    ending_at: Date,
    terminated_at: Date,
    canceled_at: Date,
    activation_at: Date,
    previous_subscription_id: String,
    previous_plan_code: String,
    next_subscription_id: String,
    next_plan_code: String,
    downgrade_plan_date: String,
    on_termination_credit_note: String,
    on_termination_invoice: String,
    progressive_billing_disabled: Boolean,
    skip_invoice_custom_sections: Boolean,
    invoice_custom_sections: [{ _id: false, id: String, invoice_custom_section_id: String, created_at: Date }],
    timezone: String,
    sandbox: Boolean,
    created_at: Date,
    updated_at: Date,
    outbox: [Schema.Types.Mixed],
  },
  { versionKey: false, minimize: false, collection: "subscriptions" },
);
subscriptionSchema.index({ organization_id: 1, slot: 1 }, { unique: true });
subscriptionSchema.index({ organization_id: 1, external_id: 1, status: 1, created_at: -1 });
subscriptionSchema.index({ organization_id: 1, status: 1, created_at: -1, _id: -1 });
// the schedulers' due lists: ordinary organizations (sandbox ≠ true) and one sandbox organization
subscriptionSchema.index({ status: 1, activation_at: 1 });
subscriptionSchema.index({ status: 1, ending_at: 1 });
subscriptionSchema.index({ organization_id: 1, status: 1, activation_at: 1 });
subscriptionSchema.index({ organization_id: 1, status: 1, ending_at: 1 });

export function registerSubscriptionModel(connection: Connection) {
  return docModel(connection, "Subscription", subscriptionSchema);
}
