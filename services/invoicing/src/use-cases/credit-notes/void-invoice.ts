import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { laterOf } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import { voidedEvents } from "../../events/invoice-events";
import type { InvoicingDeps } from "../deps";

/**
 * POST /invoices/{id}/void: a finalized invoice whose payment is pending or failed, with nothing
 * paid and no credit note left (all voided), becomes `voided`: nothing is due on it any more. Any
 * other state → 405 not_voidable (a voided invoice too, as Lago). One conditional write (the
 * invoice's revision) with its event: a second void finds it voided.
 */
export async function voidInvoice(deps: InvoicingDeps, organizationId: string, id: string): Promise<Invoice> {
  return retryOnLostRace(`void of invoice ${id}`, async () => {
    const invoice = await deps.invoices.find(organizationId, id);
    if (!invoice) throw AppError.notFound("invoice");
    const notes = await deps.creditNotes.ofInvoice(invoice.id);
    const voidable = invoice.status === "finalized" && invoice.payment_status !== "succeeded" && (invoice.total_paid_amount_cents ?? 0) === 0
      && notes.every((n) => n.credit_status === "voided");
    if (!voidable) throw new AppError("not_allowed", "not_voidable");
    const now = deps.clock.now();
    const set: Partial<Invoice> = { status: "voided", voided_at: now, updated_at: laterOf(now, invoice.updated_at) };
    const changed = { ...invoice, ...set, revision: invoice.revision + 1 };
    const events = voidedEvents(changed, now);
    if (!(await deps.invoices.changeFinalized(invoice, { set, events }))) return LOST_RACE;
    await deps.publish(invoice.id, events);
    return changed;
  });
}
