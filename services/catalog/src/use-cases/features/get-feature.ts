import { AppError } from "@billing/errors";
import type { Feature } from "../../domain/feature";
import type { CatalogDeps } from "../deps";

/** GET /features/{code}. */
export async function getFeature(deps: CatalogDeps, organizationId: string, code: string): Promise<Feature> {
  const feature = await deps.features.findLive(organizationId, code);
  if (!feature) throw AppError.notFound("feature");
  return feature;
}
