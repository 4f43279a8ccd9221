import { atFrozenTime } from "@billing/clock";
import type { ScheduledWorkRpc } from "@billing/contracts";
import { instantOf, type Handlers } from "@billing/grpc";
import type { CatalogDeps } from "../use-cases/deps";
import { nextDueTransition } from "../use-cases/subscriptions/next-due-transition";
import { runDueTransitions } from "../use-cases/subscriptions/run-due-transitions";

/** billing.common.v1.ScheduledWorkService: the catalog's time-driven work for one sandbox organization. */
export function scheduledWorkHandlers(
  deps: CatalogDeps,
  flushEvents: () => Promise<void> = async () => undefined,
): Handlers<ScheduledWorkRpc> {
  return {
    NextDue: async (req) => {
      const due = await nextDueTransition(deps, req.organization_id, instantOf(req.after, "after"));
      return due ? { due_at: due.toISOString() } : {};
    },
    // run at `at`: deps.clock answers that instant for everything this pass does
    RunDue: async (req, ctx) => {
      const done = await atFrozenTime(instantOf(req.at, "at"), () =>
        runDueTransitions(deps, req.organization_id, ctx.logger),
      );
      // the step is over only once its events are out: the next service's RunDue catches up with them
      await flushEvents();
      return { done };
    },
  };
}
