import { Schema, type Connection } from "mongoose";
import { docModel } from "@billing/mongo";
import type { PlanEntitlement, PlanEntitlementSet } from "../domain/feature";

/** A plan's entitlements as stored: `_id` is the plan's id. */
export interface PlanEntitlementDoc {
  _id: string;
  organization_id: string;
  entitlements: PlanEntitlement[];
  version: number;
  updated_at: Date;
}

/** A plan's entitlements as the domain sees them. */
export const toPlanEntitlementSet = ({ _id, ...rest }: PlanEntitlementDoc): PlanEntitlementSet => ({
  ...rest,
  plan_id: _id,
});

/**
 * Every entitlement of one plan in one document (`_id` is the plan's id), so a POST that replaces them all
 * is one write. `version` grows with every write; writers compare it to detect concurrent changes.
 */
const planEntitlementSchema = new Schema<PlanEntitlementDoc>(
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
  return docModel(connection, "PlanEntitlement", planEntitlementSchema);
}
