import type { PlanEntitlementView } from "../../domain/feature-view";
import type { CatalogDeps } from "../deps";
import { livePlan } from "./entitlement-targets";
import { entitlementViewsOf } from "./plan-entitlement-refs";

/** GET /plans/{code}/entitlements. */
export async function listPlanEntitlements(
  deps: CatalogDeps,
  organizationId: string,
  planCode: string,
): Promise<PlanEntitlementView[]> {
  const plan = await livePlan(deps, organizationId, planCode);
  return (await entitlementViewsOf(deps, organizationId, [plan.id])).get(plan.id) ?? [];
}
