import { AppError } from "@billing/errors";
import type { PlanEntitlement } from "../../domain/feature";
import { planEntitlementView, type PlanEntitlementView } from "../../domain/feature-view";
import type { CatalogDeps } from "../deps";
import { changePlanEntitlements } from "./change-plan-entitlements";
import { entitledFeature, livePlan } from "./entitlement-targets";

/**
 * DELETE /plans/{code}/entitlements/{feature_code}/privileges/{privilege_code}: the plan no longer sets that
 * privilege (the feature keeps it). 404 privilege_not_found when the plan sets no value for it.
 */
export async function deletePlanEntitlementPrivilege(
  deps: CatalogDeps,
  organizationId: string,
  planCode: string,
  featureCode: string,
  privilegeCode: string,
): Promise<PlanEntitlementView> {
  const plan = await livePlan(deps, organizationId, planCode);
  const feature = await entitledFeature(deps, organizationId, featureCode);
  const privilege = feature.privileges.find((p) => p.code === privilegeCode);
  let changed: PlanEntitlement | undefined;
  await changePlanEntitlements(deps, plan, (current, now) => {
    const entitlement = current.find((e) => e.feature_id === feature.id);
    if (!entitlement) throw AppError.notFound("entitlement");
    if (!privilege || !entitlement.values.some((v) => v.privilege_id === privilege.id))
      throw AppError.notFound("privilege");
    changed = {
      ...entitlement,
      values: entitlement.values.filter((v) => v.privilege_id !== privilege.id),
      updated_at: now,
    };
    return current.map((e) => (e === entitlement ? changed! : e));
  });
  return planEntitlementView(feature, changed!);
}
