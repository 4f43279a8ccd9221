import { renderCreditNotePdf } from "@billing/documents";
import { AppError } from "@billing/errors";
import { creditNoteDocument } from "../../domain/credit-note-document";
import type { CreditNote } from "../../domain/credit-note";
import { VISIBLE_STATUSES, type InvoiceStatus } from "../../domain/invoice";
import { DOCUMENT_STATUSES } from "../../domain/invoice-document";
import type { StoredDocument } from "../../persistence/document-repository";
import { creditNoteGeneratedEvents } from "../../events/credit-note-events";
import type { DocumentDeps } from "./deps";
import { announceFirstPdf, storedOrRendered } from "./store-document";

/**
 * A credit note's PDF: the stored one (`credit_note:<id>`), else rendered from the note, the fees
 * of its invoice and its parties, and stored once, as an invoice's (see invoicePdf). Every stored
 * credit note is issued (voided ones too, as Lago keeps their file), so each has one.
 */
export async function creditNotePdf(deps: DocumentDeps, organizationId: string, id: string): Promise<StoredDocument> {
  const note = await deps.creditNotes.find(organizationId, id);
  if (!note) throw AppError.notFound("credit_note");
  return ensureCreditNotePdf(deps, note);
}

export async function ensureCreditNotePdf(deps: DocumentDeps, note: CreditNote): Promise<StoredDocument> {
  const stored = await storedOrRendered(
    deps,
    {
      kind: "credit_note",
      organization_id: note.organization_id,
      id: note.id,
      file_name: `${note.number}.pdf`,
      created_at: new Date(`${note.issuing_date}T00:00:00Z`),
    },
    async () => {
      const [invoice, { customer, entity }] = await Promise.all([
        deps.invoices.find(note.organization_id, note.invoice_id, [
          ...VISIBLE_STATUSES,
          ...DOCUMENT_STATUSES,
        ] as InvoiceStatus[]),
        deps.parties.get(note.organization_id, note.external_customer_id, note.billing_entity_code),
      ]);
      return renderCreditNotePdf(creditNoteDocument(note, invoice, customer, entity));
    },
  );
  // Lago's credit_note.generated
  await announceFirstPdf(deps, {
    events: (at) => creditNoteGeneratedEvents(note, at),
    announce: (events) => deps.creditNotes.announceDocument(note.id, events),
    publish: deps.publishCreditNote && ((events) => deps.publishCreditNote!(note.id, events)),
  });
  return stored;
}

/** POST /credit_notes/{id}/download (Lago): the PDF is generated if it is not yet, and the note is answered. */
export async function downloadCreditNote(deps: DocumentDeps, organizationId: string, id: string): Promise<CreditNote> {
  const note = await deps.creditNotes.find(organizationId, id);
  if (!note) throw AppError.notFound("credit_note");
  await ensureCreditNotePdf(deps, note);
  return note;
}
