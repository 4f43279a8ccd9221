import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { laterOf } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import { dayOf, isPaymentOverdue } from "../../domain/payment-overdue";
import { paymentOverdueEvents } from "../../events/invoice-events";
import type { DueScope } from "../../persistence/copy-repository";
import { runBounded } from "../billing/run-bounded";
import type { InvoiceDeps } from "./deps";

type OverdueDeps = Pick<InvoiceDeps, "clock" | "invoices" | "limits" | "logger" | "publish">;

/**
 * Finalized invoices that became overdue at `deps.clock.now()` (not paid, payment_due_date before
 * the clock's day) are announced, once each: `billing.invoicing.invoice.payment_overdue` (Lago's
 * invoice.payment_overdue) written into the invoice's outbox by the same conditional write that
 * sets `payment_overdue_announced_at`. One batch; returns how many this caller announced.
 */
export async function announceOverdueInvoices(deps: OverdueDeps, scope: DueScope = {}): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.invoices.dueOverdue(dayOf(now), deps.limits.batch, scope);
  let done = 0;
  await runBounded(due, deps.limits.concurrency, async (invoice) => {
    try {
      if (await announceOverdue(deps, invoice, now)) done++;
    } catch (err) {
      deps.logger.error({ err, invoice_id: invoice.id }, "could not announce an overdue invoice; will retry");
    }
  });
  return done;
}

/** One invoice: read (first the copy the due query gave), decide, write conditionally; false when there is nothing (left) to announce. */
async function announceOverdue(deps: OverdueDeps, found: Invoice, now: Date): Promise<boolean> {
  return retryOnLostRace(`overdue announcement of invoice ${found.id}`, async (attempt) => {
    const invoice = attempt === 0 ? found : await deps.invoices.findById(found.id);
    // announced by another replica or check meanwhile, paid, or no longer overdue: nothing to do
    if (!invoice || invoice.payment_overdue_announced_at || !isPaymentOverdue(invoice, now)) return false;
    const set: Partial<Invoice> = { payment_overdue_announced_at: now, updated_at: laterOf(now, invoice.updated_at) };
    const events = paymentOverdueEvents({ ...invoice, ...set, revision: invoice.revision + 1 }, now);
    if (!(await deps.invoices.announceOverdue(invoice, { set, events }))) return LOST_RACE;
    await deps.publish(invoice.id, events);
    return true;
  });
}
