import { AppError } from "@billing/errors";
import type { Feature } from "../../domain/feature";
import type { Plan } from "../../domain/types";
import type { CatalogDeps } from "../deps";

/** The plan and the feature an entitlement request names, each looked up live or refused with 404. */

/** The organization's live plan of that code, or 404 plan_not_found. */
export async function livePlan(deps: CatalogDeps, organizationId: string, code: string): Promise<Plan> {
  const plan = await deps.plans.findLive(organizationId, code);
  if (!plan) throw AppError.notFound("plan");
  return plan;
}

/** The live feature a plan entitlement names, or 404 entitlement_not_found. */
export async function entitledFeature(
  deps: CatalogDeps,
  organizationId: string,
  featureCode: string,
): Promise<Feature> {
  const feature = await deps.features.findLive(organizationId, featureCode);
  if (!feature) throw AppError.notFound("entitlement");
  return feature;
}
