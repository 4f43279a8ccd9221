import { Subjects } from "@billing/bus";
import type { Plan } from "../../domain/types";
import { planView, type PlanRefs, type PlanView } from "../../domain/views";
import { planEvent, type PlanEventType } from "../../events/plan-events";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { changedPlan, type PlanChange } from "./plan-change";
import { planRefs } from "./plan-refs";

/** Writes a plan's next state with its event (the whole view), then publishes it. */
export async function writePlan(
  deps: CatalogDeps,
  organizationId: string,
  code: string,
  type: PlanEventType,
  change: (current: Plan, now: Date) => Promise<Plan>,
  requestId?: string,
): Promise<PlanView> {
  let refs: PlanRefs | undefined;
  const { next, event } = await changeRecord(
    deps.plans,
    deps.clock,
    { organizationId, code, resource: "plan" },
    async (current, now) => {
      const next = await change(current, now);
      refs = await planRefs(deps, organizationId, [next]);
      return next;
    },
    (plan, now) => planEvent(type, organizationId, planView(plan, refs!), now, requestId),
  );
  await deps.publishPlanEvent(next.id, event!);
  return planView(next, refs!);
}

/** PUT /plans/{code}: only the fields sent change; charges sent replace the list (an `id` keeps that charge). */
export function updatePlan(deps: CatalogDeps, organizationId: string, code: string, change: PlanChange, requestId?: string): Promise<PlanView> {
  return writePlan(deps, organizationId, code, Subjects.catalog.planUpdated, (current, now) => changedPlan(deps, current, change, now), requestId);
}
