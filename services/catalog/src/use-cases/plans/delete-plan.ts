import { Subjects } from "@billing/bus";
import type { PlanView } from "../../domain/views";
import type { CatalogDeps } from "../deps";
import { writePlan } from "./write-plan";

/** DELETE /plans/{code}: a soft delete (the code is free again); publishes plan.deleted. */
export function deletePlan(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  requestId?: string,
): Promise<PlanView> {
  return writePlan(
    deps,
    organizationId,
    code,
    Subjects.catalog.planDeleted,
    async (current, now) => ({ ...current, deleted_at: now }),
    requestId,
  );
}
