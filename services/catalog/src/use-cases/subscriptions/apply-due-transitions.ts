import type { Logger } from "@billing/logger";
import type { DueScope } from "../../persistence/subscription-repository";
import type { CatalogDeps } from "../deps";
import { activateSubscription } from "./activate-subscription";
import { terminateSubscription } from "./terminate-subscription";

/**
 * One pass of the subscription scheduler: pending subscriptions whose start has come become
 * active (a downgrade ends the subscription it replaces), and active ones past their ending_at
 * terminate. Each change is a guarded write, so several replicas may run passes at once.
 * Returns how many subscriptions changed. The scheduler passes ordinary organizations (system
 * clock); a test clock's RunDue passes one sandbox organization at its frozen time.
 */
export async function applyDueTransitions(
  deps: CatalogDeps,
  logger?: Logger,
  scope: DueScope = {},
  batch = 100,
): Promise<number> {
  const now = deps.clock.now();
  let changed = 0;
  for (const s of await deps.subscriptions.duePending(now, batch, scope)) {
    try {
      await activateSubscription(deps, s);
      changed++;
    } catch (err) {
      logger?.error({ err, subscription: s.id }, "could not start a due subscription");
    }
  }
  for (const s of await deps.subscriptions.dueEnding(now, batch, scope)) {
    try {
      await terminateSubscription(deps, s, { at: s.ending_at! });
      changed++;
    } catch (err) {
      logger?.error({ err, subscription: s.id }, "could not end a subscription at its ending_at");
    }
  }
  return changed;
}
