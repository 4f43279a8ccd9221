import { docModel, type DocModel } from "@billing/mongo";
import { Schema, type Connection } from "mongoose";

/**
 * What an organization does with the part of a provider's success its invoice could not take:
 * `refund` (the default) gives it back through the provider that took it; `manual` records it and
 * leaves it to the organization (`to_give_back`: a credit note, a transfer, applying it elsewhere).
 */
export type OverpaymentHandling = "refund" | "manual";
export const OVERPAYMENT_HANDLINGS: readonly OverpaymentHandling[] = ["refund", "manual"];

interface SettingsDoc {
  _id: string;
  overpayment_handling: OverpaymentHandling;
  updated_at: Date;
}

const settingsSchema = new Schema<SettingsDoc>(
  { _id: String, overpayment_handling: String, updated_at: Date },
  { versionKey: false },
);

export function registerSettingsModel(connection: Connection): DocModel<SettingsDoc> {
  return docModel(connection, "PaymentSettings", settingsSchema, {
    collection: "organization_payment_settings",
    reuse: true,
  });
}

/** Each organization's payment settings, keyed by the organization's id (one `_id` read: fast on the test server too); none stored: the defaults. */
export class PaymentSettings {
  constructor(private readonly model: DocModel<SettingsDoc>) {}

  async overpaymentHandling(organizationId: string): Promise<OverpaymentHandling> {
    const doc = await this.model.findById(organizationId).lean<SettingsDoc>();
    return doc?.overpayment_handling ?? "refund";
  }

  async setOverpaymentHandling(organizationId: string, handling: OverpaymentHandling, now: Date): Promise<void> {
    await this.model.updateOne(
      { _id: organizationId },
      { $set: { overpayment_handling: handling, updated_at: now } },
      { upsert: true },
    );
  }
}
