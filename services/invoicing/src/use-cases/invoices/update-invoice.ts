import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { laterOf } from "../../domain/compose-invoice";
import type { Invoice, InvoiceMetadata, PaymentStatus } from "../../domain/invoice";
import { paymentStatusEvents } from "../../events/invoice-events";
import type { InvoiceDeps } from "./deps";

export interface InvoiceUpdate {
  paymentStatus?: PaymentStatus;
  /** Lago's metadata list: an item with a known id changes it, one without adds one; unlisted items go. */
  metadata?: Array<{ id?: string | null; key: string; value: string }>;
}

/** The metadata after an update (Lago's semantics: the list given is the new list; known ids keep their item). */
export function updatedMetadata(
  current: readonly InvoiceMetadata[],
  given: NonNullable<InvoiceUpdate["metadata"]>,
  now: Date,
): InvoiceMetadata[] {
  return given.map((item) => {
    const known = item.id ? current.find((m) => m.id === item.id) : undefined;
    return known
      ? { ...known, key: item.key, value: item.value }
      : { id: randomUUID(), key: item.key, value: item.value, created_at: now };
  });
}

/**
 * PUT /invoices/{id}: metadata (any visible invoice) and payment_status (a finalized invoice
 * only: a draft has nothing to pay yet). One conditional write over the revision read.
 */
export async function updateInvoice(
  deps: Pick<InvoiceDeps, "clock" | "invoices" | "publish">,
  organizationId: string,
  id: string,
  update: InvoiceUpdate,
): Promise<Invoice> {
  return retryOnLostRace(`update of invoice ${id}`, async () => {
    const invoice = await deps.invoices.find(organizationId, id);
    if (!invoice) throw AppError.notFound("invoice");
    // a voided invoice changes no more (Lago's update_on_voided_invoice)
    if (invoice.status === "voided") throw new AppError("not_allowed", "update_on_voided_invoice");
    if (update.paymentStatus && invoice.status !== "finalized")
      throw new AppError("not_allowed", "payment_status_update_not_allowed");
    const now = deps.clock.now();
    const set: Partial<Invoice> = { updated_at: laterOf(now, invoice.updated_at) };
    if (update.paymentStatus) set.payment_status = update.paymentStatus;
    if (update.metadata) set.metadata = updatedMetadata(invoice.metadata, update.metadata, now);
    const changed = { ...invoice, ...set, revision: invoice.revision + 1 };
    // a new payment status is announced (Lago's invoice.payment_status_updated): a wallet top-up settles on it
    const events =
      update.paymentStatus && update.paymentStatus !== invoice.payment_status ? paymentStatusEvents(changed, now) : [];
    const written =
      invoice.status === "finalized"
        ? await deps.invoices.changeFinalized(invoice, { set, events })
        : await deps.invoices.changeOpen(invoice, { set });
    if (!written) return LOST_RACE;
    if (events.length) await deps.publish(invoice.id, events);
    return changed;
  });
}
