import { isDuplicateKeyError, type DocModel } from "@billing/mongo";
import type { PlanEntitlementSet } from "../domain/feature";
import { toPlanEntitlementSet as toDomain, type PlanEntitlementDoc as Doc } from "./plan-entitlement-model";

/** Plans' entitlements, one document per plan; every query is scoped to an organization. */
export class PlanEntitlementRepository {
  constructor(private readonly model: DocModel<Doc>) {}

  async find(organizationId: string, planId: string): Promise<PlanEntitlementSet | null> {
    const doc = await this.model.findOne({ organization_id: organizationId, _id: planId }).lean<Doc>();
    return doc ? toDomain(doc) : null;
  }

  async findForPlans(organizationId: string, planIds: string[]): Promise<PlanEntitlementSet[]> {
    if (planIds.length === 0) return [];
    const docs = await this.model.find({ organization_id: organizationId, _id: { $in: planIds } }).lean<Doc[]>();
    return docs.map(toDomain);
  }

  /** Writes the plan's entitlements if they are still at `set.version` (a first write inserts); false when someone wrote meanwhile. */
  async save(set: PlanEntitlementSet, isNew: boolean): Promise<boolean> {
    const fields = { entitlements: set.entitlements, updated_at: set.updated_at };
    if (isNew) {
      try {
        await this.model.collection.insertOne({
          _id: set.plan_id,
          organization_id: set.organization_id,
          ...fields,
          version: 1,
        });
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    }
    const result = await this.model.collection.updateOne(
      { _id: set.plan_id, organization_id: set.organization_id, version: set.version },
      { $set: fields, $inc: { version: 1 } },
    );
    return result.matchedCount === 1;
  }

  /** A deleted feature leaves every plan. */
  async removeFeature(organizationId: string, featureId: string): Promise<void> {
    await this.model.collection.updateMany(
      { organization_id: organizationId, "entitlements.feature_id": featureId },
      { $pull: { entitlements: { feature_id: featureId } }, $inc: { version: 1 } },
    );
  }

  /** A deleted privilege's values leave every plan (a feature appears once per plan, hence the positional `$`). */
  async removePrivilege(organizationId: string, featureId: string, privilegeId: string): Promise<void> {
    await this.model.collection.updateMany(
      { organization_id: organizationId, "entitlements.feature_id": featureId },
      { $pull: { "entitlements.$.values": { privilege_id: privilegeId } }, $inc: { version: 1 } },
    );
  }
}
