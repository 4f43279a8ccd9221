import { dayOf } from "../../domain/payment-overdue";
import type { DueScope } from "../../persistence/copy-repository";
import { billDueSubscriptions } from "../billing/bill-due-subscriptions";
import type { BillingDeps } from "../billing/deps";
import { announceOverdueInvoices } from "../invoices/announce-overdue-invoices";
import { finalizeDueInvoices } from "../invoices/finalize-due-invoices";
import { checkUsageThresholds } from "../progressive/check-usage-thresholds";

/** Passes in a row at most (a batch each): a jump across many boundaries takes one pass per batch and boundary. */
const MAX_PASSES = 10_000;

/**
 * Everything due at `deps.clock.now()` in scope: billings (passes repeated while they find work:
 * a test clock's jump may cross several boundaries), then open invoices whose time has come
 * (drafts at the end of their grace period), then finalized invoices that became overdue
 * (announced once each). The scheduler runs it for ordinary organizations; a test clock's RunDue
 * for one sandbox organization, after the consumers have caught up. Returns how many pieces of
 * work were done.
 */
export async function runDueWork(deps: BillingDeps, scope: DueScope = {}): Promise<number> {
  let done = 0;
  if (scope.organizationId) {
    // a test clock step: usage sent before it is checked against the thresholds at this time,
    // before the period is billed (the envelopes may still be on their way; a crossing is
    // invoiced once whoever sees it first)
    const subscriptions = await deps.progressive.progressiveSubscriptionsOf(scope.organizationId);
    if (subscriptions.length > 0)
      done += (await checkUsageThresholds(deps, scope.organizationId, subscriptions, { sandbox: true })).length;
  }
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const billed = await billDueSubscriptions(deps, scope);
    done += billed;
    if (billed === 0) break;
  }
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const finalized = await finalizeDueInvoices(deps, scope);
    done += finalized;
    if (finalized === 0) break;
  }
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const announced = await announceOverdueInvoices(deps, scope);
    done += announced;
    if (announced === 0) break;
  }
  if (scope.organizationId) {
    // a test clock must not move on while work due at its time is left undone (a failed invoice,
    // a customer copy not there yet): the step fails, and the clock's driver runs it again
    const now = deps.clock.now();
    const [subscription] = await deps.copies.dueSubscriptions(now, 1, scope);
    const [invoice] = await deps.invoices.dueOpen(now, 1, scope);
    const [overdue] = await deps.invoices.dueOverdue(dayOf(now), 1, scope);
    if (subscription || invoice || overdue)
      throw new Error(`invoicing work due at ${now.toISOString()} is left undone for ${scope.organizationId}; retry`);
  }
  return done;
}
