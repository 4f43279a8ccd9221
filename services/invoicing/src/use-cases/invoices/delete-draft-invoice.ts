import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { laterOf } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import { deletedEvents } from "../../events/invoice-events";
import type { InvoiceDeps } from "./deps";

/**
 * DELETE /invoices/{id}: a draft (in its grace period, its finalization not begun) is deleted: it
 * takes no number and is never shown again (status `deleted`, invisible, as Lago). Any other
 * visible invoice → 405 not_deletable. Announced as Lago's invoice.deleted (the event in the same write). One conditional write: a draft being finalized at the same
 * moment is either deleted first (the finalizer then finds it no longer open) or finalized first
 * (the delete is then refused).
 */
export async function deleteDraftInvoice(
  deps: Pick<InvoiceDeps, "clock" | "invoices" | "publish">,
  organizationId: string,
  id: string,
): Promise<Invoice> {
  return retryOnLostRace(`deletion of invoice ${id}`, async () => {
    const invoice = await deps.invoices.find(organizationId, id);
    if (!invoice) throw AppError.notFound("invoice");
    if (invoice.status !== "draft" || invoice.finalizing) throw new AppError("not_allowed", "not_deletable");
    const now = deps.clock.now();
    const set: Partial<Invoice> = {
      status: "deleted",
      finalize_at: null,
      updated_at: laterOf(now, invoice.updated_at),
    };
    const deleted = { ...invoice, ...set, revision: invoice.revision + 1 };
    const events = deletedEvents(deleted, now);
    if (!(await deps.invoices.changeOpen(invoice, { set, events }))) return LOST_RACE;
    await deps.publish(invoice.id, events);
    return deleted;
  });
}
