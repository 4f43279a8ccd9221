import type { Logger } from "@billing/logger";
import { startPeriodic, type Periodic } from "@billing/runtime";
import type { CatalogDeps } from "../use-cases/deps";
import { applyDueTransitions } from "../use-cases/subscriptions/apply-due-transitions";

/**
 * Runs the subscription transitions due on the injected clock every `intervalMs` of real time;
 * a pass that found work is followed at once by another, 20 at most.
 */
export function startSubscriptionScheduler(deps: CatalogDeps, logger: Logger, intervalMs: number): Periodic {
  return startPeriodic("subscription scheduler", async () => (await applyDueTransitions(deps, logger)) > 0, {
    intervalMs,
    logger,
    maxRounds: 20,
  });
}
