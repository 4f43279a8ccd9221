import type { PlanEntitlement } from "../../domain/feature";
import { planEntitlementViews, type PlanEntitlementView } from "../../domain/feature-view";
import type { CatalogDeps } from "../deps";

/** The views of entitlements whose feature is live (one query for the features). */
export async function entitlementViews(
  deps: CatalogDeps,
  organizationId: string,
  entitlements: PlanEntitlement[],
): Promise<PlanEntitlementView[]> {
  const features = await deps.features.findLiveByIds(organizationId, [
    ...new Set(entitlements.map((e) => e.feature_id)),
  ]);
  return planEntitlementViews(entitlements, new Map(features.map((f) => [f.id, f])));
}

/** Each plan's entitlement views by plan id (two queries for all the plans). */
export async function entitlementViewsOf(
  deps: CatalogDeps,
  organizationId: string,
  planIds: string[],
): Promise<Map<string, PlanEntitlementView[]>> {
  const sets = await deps.planEntitlements.findForPlans(organizationId, [...new Set(planIds)]);
  const features = await deps.features.findLiveByIds(organizationId, [
    ...new Set(sets.flatMap((s) => s.entitlements.map((e) => e.feature_id))),
  ]);
  const byId = new Map(features.map((f) => [f.id, f]));
  return new Map(sets.map((s) => [s.plan_id, planEntitlementViews(s.entitlements, byId)]));
}
