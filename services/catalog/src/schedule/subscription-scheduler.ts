import type { Logger } from "@billing/logger";
import { applyDueTransitions } from "../use-cases/subscriptions/activate-due";
import type { CatalogDeps } from "../use-cases/deps";

/** Runs the subscription transitions every `intervalMs` (passes repeat at once while they find work, 20 at most). */
export function startSubscriptionScheduler(deps: CatalogDeps, logger: Logger, intervalMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = async () => {
    try {
      for (let round = 0; round < 20 && !stopped && (await applyDueTransitions(deps, logger)) > 0; round++);
    } catch (err) {
      logger.error({ err }, "subscription scheduler pass failed");
    }
    if (!stopped) timer = setTimeout(() => (running = pass()), intervalMs);
  };
  timer = setTimeout(() => (running = pass()), intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
