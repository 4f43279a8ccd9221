import type { Plan } from "../../domain/types";
import { planView, type PlanRefs, type PlanView } from "../../domain/views";
import { planEvent, type PlanEventType } from "../../events/plan-events";
import type { CatalogDeps } from "../deps";
import { changeRecord } from "../catalog-record-writes";
import { planRefs } from "./plan-refs";

/**
 * Writes a live plan's next state with its event (the whole view, references resolved once for
 * both), then publishes the event. Shared by updates and deletes.
 */
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
