import { Subjects } from "@billing/bus";
import type { PlanView } from "../../domain/views";
import type { CatalogDeps } from "../deps";
import { changedPlan, type PlanChange } from "./plan-change";
import { writePlan } from "./write-plan";

/** PUT /plans/{code}: only the fields sent change; charges sent replace the list (an `id` keeps that charge). */
export function updatePlan(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  change: PlanChange,
  requestId?: string,
): Promise<PlanView> {
  return writePlan(
    deps,
    organizationId,
    code,
    Subjects.catalog.planUpdated,
    (current, now) => changedPlan(deps, current, change, now),
    requestId,
  );
}
