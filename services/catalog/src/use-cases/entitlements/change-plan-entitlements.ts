import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { PlanEntitlement } from "../../domain/feature";
import type { Plan } from "../../domain/types";
import type { CatalogDeps } from "../deps";

/**
 * Reads the plan's entitlements, computes the next list and writes it if nobody wrote meanwhile (reading again
 * after a lost race). `change` may throw; nothing is stored then.
 */
export async function changePlanEntitlements(
  deps: CatalogDeps,
  plan: Plan,
  change: (current: PlanEntitlement[], now: Date) => PlanEntitlement[],
): Promise<PlanEntitlement[]> {
  return retryOnLostRace(
    "plan entitlements",
    async () => {
      const set = await deps.planEntitlements.find(plan.organization_id, plan.id);
      const now = deps.clock.now();
      const entitlements = change(set?.entitlements ?? [], now);
      const next = {
        plan_id: plan.id,
        organization_id: plan.organization_id,
        entitlements,
        version: set?.version ?? 0,
        updated_at: now,
      };
      return (await deps.planEntitlements.save(next, !set)) ? entitlements : LOST_RACE;
    },
    10,
  );
}
