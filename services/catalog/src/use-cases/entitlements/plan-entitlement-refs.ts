import { AppError } from "@billing/errors";
import type { PlanEntitlement } from "../../domain/feature";
import { planEntitlementViews, type PlanEntitlementView } from "../../domain/feature-view";
import type { Plan } from "../../domain/types";
import type { CatalogDeps } from "../deps";

/** The organization's live plan of that code, or 404 plan_not_found. */
export async function livePlan(deps: CatalogDeps, organizationId: string, code: string): Promise<Plan> {
  const plan = await deps.plans.findLive(organizationId, code);
  if (!plan) throw AppError.notFound("plan");
  return plan;
}

/** The views of entitlements whose feature is live (one query for the features). */
export async function entitlementViews(deps: CatalogDeps, organizationId: string, entitlements: PlanEntitlement[]): Promise<PlanEntitlementView[]> {
  const features = await deps.features.findLiveByIds(organizationId, [...new Set(entitlements.map((e) => e.feature_id))]);
  return planEntitlementViews(entitlements, new Map(features.map((f) => [f.id, f])));
}

/** Each plan's entitlement views by plan id (two queries for all the plans). */
export async function entitlementViewsOf(deps: CatalogDeps, organizationId: string, planIds: string[]): Promise<Map<string, PlanEntitlementView[]>> {
  const sets = await deps.planEntitlements.findForPlans(organizationId, [...new Set(planIds)]);
  const features = await deps.features.findLiveByIds(organizationId, [...new Set(sets.flatMap((s) => s.entitlements.map((e) => e.feature_id)))]);
  const byId = new Map(features.map((f) => [f.id, f]));
  return new Map(sets.map((s) => [s.plan_id, planEntitlementViews(s.entitlements, byId)]));
}
