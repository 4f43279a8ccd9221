import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import { applyOffset } from "../use-cases/credit-notes/apply-offset";
import { voidCreditInvoiceCredits } from "../use-cases/credit-notes/void-credit-invoice-credits";
import type { CreditNoteDeps } from "../use-cases/credit-notes/deps";

export const CREDIT_NOTE_SUBJECTS = [Subjects.invoicing.creditNoteCreated];

/**
 * The service's own billing.invoicing.credit_note.created: a note's offset applied to its invoice
 * and a refunded credit invoice's wallet credits voided (both done right after the note is stored
 * too; this backs them up after a crash, each once).
 */
export function creditNoteEventHandler(
  deps: Pick<CreditNoteDeps, "clock" | "creditInvoiceWallets" | "invoices" | "publish">,
) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, CREDIT_NOTE_SUBJECTS)) return;
    const { credit_note: note } = eventData(envelope);
    await applyOffset(deps, {
      id: note.svc_id,
      invoice_id: note.svc_invoice_id,
      offset_amount_cents: note.offset_amount_cents,
    });
    await voidCreditInvoiceCredits(deps, {
      id: note.svc_id,
      organization_id: envelope.organization_id,
      invoice_id: note.svc_invoice_id,
      refund_amount_cents: note.refund_amount_cents,
    });
  };
}
