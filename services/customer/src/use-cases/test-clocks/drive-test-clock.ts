import { atFrozenTime } from "@billing/clock";
import type { Logger } from "@billing/logger";
import { nextStep } from "../../domain/test-clock";
import type { CustomerDeps } from "../deps";

/**
 * Moves an advancing clock to its target, step by step, in the order real time would: each step
 * goes to the earliest instant at which any service has work due (NextDue), every service then
 * runs what is due up to it (RunDue, in dependency order: the catalog's subscription changes before
 * invoicing bills them), and only then does the clock show that time. Resumable: a stop leaves the
 * clock advancing at the last completed step, and the next drive continues from there; RunDue is
 * idempotent, so a repeated step does nothing twice.
 */
export async function driveTestClock(deps: CustomerDeps, organizationId: string, logger?: Logger): Promise<void> {
  for (;;) {
    const organization = await deps.organizations.findById(organizationId);
    const clock = organization?.test_clock;
    if (!clock || clock.status !== "advancing" || !clock.target) return;
    const from = clock.frozen_time;
    await deps.flushEvents(); // customers created at this time must reach the peers before they bill
    const dues = await Promise.all(deps.scheduledWork.map((peer) => peer.nextDue(organizationId, from)));
    const step = nextStep(clock.target, dues);
    for (const peer of deps.scheduledWork) {
      const done = await atFrozenTime(step, () => peer.runDue(organizationId, step));
      logger?.debug(
        { organization_id: organizationId, peer: peer.name, at: step.toISOString(), done },
        "test clock step run",
      );
    }
    if (step.getTime() !== from.getTime() && !(await deps.organizations.stepTestClock(organizationId, from, step)))
      return; // moved by another driver
    if (step.getTime() === clock.target.getTime()) {
      await deps.organizations.finishAdvance(organizationId, step);
      return;
    }
  }
}
