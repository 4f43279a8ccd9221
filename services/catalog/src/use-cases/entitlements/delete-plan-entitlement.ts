import { AppError } from "@billing/errors";
import type { PlanEntitlement } from "../../domain/feature";
import { planEntitlementView, type PlanEntitlementView } from "../../domain/feature-view";
import type { CatalogDeps } from "../deps";
import { changePlanEntitlements } from "./change-plan-entitlements";
import { entitledFeature, livePlan } from "./entitlement-targets";

/** DELETE /plans/{code}/entitlements/{feature_code}: the plan no longer grants the feature; answers the entitlement as it was. */
export async function deletePlanEntitlement(
  deps: CatalogDeps,
  organizationId: string,
  planCode: string,
  featureCode: string,
): Promise<PlanEntitlementView> {
  const plan = await livePlan(deps, organizationId, planCode);
  const feature = await entitledFeature(deps, organizationId, featureCode);
  let removed: PlanEntitlement | undefined;
  await changePlanEntitlements(deps, plan, (current) => {
    removed = current.find((e) => e.feature_id === feature.id);
    if (!removed) throw AppError.notFound("entitlement");
    return current.filter((e) => e !== removed);
  });
  return planEntitlementView(feature, removed!);
}
