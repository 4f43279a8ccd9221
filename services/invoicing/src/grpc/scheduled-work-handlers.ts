import { atFrozenTime } from "@billing/clock";
import type { ScheduledWorkRpc } from "@billing/contracts";
import { instantOf as instant, type Handlers } from "@billing/grpc";
import type { BillingDeps } from "../use-cases/billing/deps";
import type { InvoiceDeps } from "../use-cases/invoices/deps";
import { nextDueWork } from "../use-cases/scheduled-work/next-due-work";
import { runDueWork } from "../use-cases/scheduled-work/run-due-work";

/** billing.common.v1.ScheduledWorkService: invoicing's time-driven work for one sandbox organization. */
export function scheduledWorkHandlers(deps: BillingDeps & Pick<InvoiceDeps, "caughtUp">): Handlers<ScheduledWorkRpc> {
  return {
    NextDue: async (req) => {
      const due = await nextDueWork(deps, req.organization_id, instant(req.after, "after"));
      return due ? { due_at: due.toISOString() } : {};
    },
    RunDue: async (req) => {
      const at = instant(req.at, "at");
      // the previous step's effects (the catalog's subscription events) first
      await deps.caughtUp();
      return { done: await atFrozenTime(at, () => runDueWork(deps, { organizationId: req.organization_id })) };
    },
  };
}
