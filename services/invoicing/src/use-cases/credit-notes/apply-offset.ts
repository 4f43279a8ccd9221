import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { sumCents } from "@billing/pricing";
import { laterOf } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import { paymentStatusEvents } from "../../events/invoice-events";
import type { CreditNoteDeps } from "./deps";
import { dueOf } from "../invoices/apply-payment";

/**
 * A credit note's offset deducted from what is due on its (finalized) invoice, once per note: the
 * note's id is written with the new offset in one conditional write (the invoice's revision), so
 * the call right after the note is stored and the redelivered credit_note.created event that
 * backs it up (a crash between the two) apply it once. Nothing left due → the invoice is paid.
 */
export async function applyOffset(
  deps: Pick<CreditNoteDeps, "clock" | "invoices" | "publish">,
  note: { id: string; invoice_id: string; offset_amount_cents: number },
): Promise<void> {
  if (note.offset_amount_cents <= 0) return;
  await retryOnLostRace(`offset of credit note ${note.id}`, async () => {
    const invoice = await deps.invoices.findById(note.invoice_id);
    if (!invoice || invoice.status !== "finalized" || (invoice.applied_credit_notes ?? []).includes(note.id))
      return null;
    const now = deps.clock.now();
    const offset = sumCents([invoice.offset_amount_cents ?? 0, note.offset_amount_cents], "offset amount");
    const set: Partial<Invoice> = {
      offset_amount_cents: offset,
      applied_credit_notes: [...(invoice.applied_credit_notes ?? []), note.id],
      updated_at: laterOf(now, invoice.updated_at),
    };
    if (dueOf({ ...invoice, offset_amount_cents: offset }) === 0 && invoice.payment_status !== "succeeded")
      set.payment_status = "succeeded";
    const changed = { ...invoice, ...set, revision: invoice.revision + 1 };
    const events = set.payment_status ? paymentStatusEvents(changed, now) : [];
    if (!(await deps.invoices.changeFinalized(invoice, { set, events }))) return LOST_RACE;
    if (events.length) await deps.publish(invoice.id, events);
    return null;
  });
}
