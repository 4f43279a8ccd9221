import type { DueScope } from "../../persistence/copy-repository";
import { billDueSubscriptions } from "../billing/bill-due-subscriptions";
import type { InvoicingDeps } from "../deps";
import { finalizeDueDrafts } from "../invoices/finalize-due-drafts";

/**
 * Everything due at `deps.clock.now()` in scope: periodic invoices (passes repeated while they
 * find work: a jump may cross several boundaries), then drafts whose grace period has ended.
 * The scheduler runs it for ordinary organizations; a test clock's RunDue for one sandbox one,
 * after the consumers have caught up with what the previous step published.
 */
export async function runDueWork(deps: InvoicingDeps, scope: DueScope = {}): Promise<number> {
  let done = 0;
  for (let round = 0; round < 100; round++) {
    const billed = await billDueSubscriptions(deps, scope);
    done += billed;
    if (billed === 0) break;
  }
  done += await finalizeDueDrafts(deps, scope);
  if (scope.organizationId) {
    // a test clock must not move on while work due at its time is left undone (a failed invoice):
    // the step fails, and the clock's driver runs it again
    const now = deps.clock.now();
    const [subscription] = await deps.copies.dueSubscriptions(now, 1, scope);
    const [draft] = await deps.invoices.dueDrafts(now, 1, scope);
    if (subscription || draft) throw new Error(`work due at ${now.toISOString()} is left undone for ${scope.organizationId}; retry`);
  }
  return done;
}

/** When the organization's next invoicing work is due after `after` (a billing instant or a grace end). */
export async function nextDueWork(deps: InvoicingDeps, organizationId: string, after: Date): Promise<Date | null> {
  const [billing, finalization] = await Promise.all([
    deps.copies.nextBillingAfter(organizationId, after),
    deps.invoices.nextFinalizationAfter(organizationId, after),
  ]);
  const times = [billing, finalization].filter((d): d is Date => d !== null).map((d) => d.getTime());
  return times.length ? new Date(Math.min(...times)) : null;
}
