import { Schema, type Connection } from "mongoose";

/**
 * Every entitlement of one plan in one document (`_id` is the plan's id), so a POST that replaces them all
 * is one write. `version` grows with every write; writers compare it to detect concurrent changes.
 */
const planEntitlementSchema = new Schema(
  {
    _id: String,
    organization_id: { type: String, required: true },
    entitlements: [Schema.Types.Mixed],
    version: { type: Number, required: true },
    updated_at: Date,
  },
  { versionKey: false, minimize: false, collection: "plan_entitlements" },
);
planEntitlementSchema.index({ organization_id: 1, "entitlements.feature_id": 1 });

export function registerPlanEntitlementModel(connection: Connection) {
  return connection.model("PlanEntitlement", planEntitlementSchema);
}
