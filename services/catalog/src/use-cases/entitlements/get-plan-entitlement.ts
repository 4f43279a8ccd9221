import { AppError } from "@billing/errors";
import type { PlanEntitlementView } from "../../domain/feature-view";
import type { CatalogDeps } from "../deps";
import { listPlanEntitlements } from "./list-plan-entitlements";

/** GET /plans/{code}/entitlements/{feature_code}: 404 entitlement_not_found when the plan does not grant that feature. */
export async function getPlanEntitlement(
  deps: CatalogDeps,
  organizationId: string,
  planCode: string,
  featureCode: string,
): Promise<PlanEntitlementView> {
  const found = (await listPlanEntitlements(deps, organizationId, planCode)).find((e) => e.code === featureCode);
  if (!found) throw AppError.notFound("entitlement");
  return found;
}
