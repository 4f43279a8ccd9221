import type { Feature } from "../../domain/feature";
import type { CatalogDeps } from "../deps";
import { deleteRecord } from "../catalog-record-writes";

/** DELETE /features/{code}: a soft delete (the code is free again); the feature leaves every plan. */
export async function deleteFeature(deps: CatalogDeps, organizationId: string, code: string): Promise<Feature> {
  const { next } = await deleteRecord(deps.features, deps.clock, { organizationId, code, resource: "feature" });
  await deps.planEntitlements.removeFeature(organizationId, next.id);
  return next;
}
