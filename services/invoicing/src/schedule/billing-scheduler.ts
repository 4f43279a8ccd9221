import { startPeriodic, type Periodic } from "@billing/runtime";
import type { BillingDeps } from "../use-cases/billing/deps";
import { runDueWork } from "../use-cases/scheduled-work/run-due-work";

/** Ordinary organizations' billing and grace periods, on the system clock: the same use case a test clock's RunDue runs. */
export function startBillingScheduler(deps: BillingDeps, intervalMs: number): Periodic {
  return startPeriodic("billing scheduler", async () => (await runDueWork(deps)) > 0, {
    intervalMs,
    logger: deps.logger,
    maxRounds: 10,
  });
}
