import { AppError } from "@billing/errors";
import type { Feature, Privilege } from "../../domain/feature";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";

/** DELETE /features/{code}/privileges/{privilege_code}: the privilege leaves the feature and every plan's values. */
export async function deleteFeaturePrivilege(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  privilegeCode: string,
): Promise<Feature> {
  let removed: Privilege | undefined;
  const { next } = await changeRecord(
    deps.features,
    deps.clock,
    { organizationId, code, resource: "feature" },
    (current) => {
      removed = current.privileges.find((p) => p.code === privilegeCode);
      if (!removed) throw AppError.notFound("privilege");
      return { ...current, privileges: current.privileges.filter((p) => p !== removed) };
    },
  );
  await deps.planEntitlements.removePrivilege(organizationId, next.id, removed!.id);
  return next;
}
