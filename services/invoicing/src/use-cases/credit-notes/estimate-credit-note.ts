import { AppError } from "@billing/errors";
import { estimateCreditNote, type CreditNoteEstimate, type CreditNoteRequest } from "../../domain/credit-note";
import type { CreditNoteDeps } from "./deps";

/** POST /credit_notes/estimate: what a credit note on these items would be; nothing stored. */
export async function estimateCreditNoteOf(
  deps: Pick<CreditNoteDeps, "creditNotes" | "invoices">,
  organizationId: string,
  invoiceId: string,
  items: CreditNoteRequest["items"],
): Promise<CreditNoteEstimate> {
  const invoice = await deps.invoices.find(organizationId, invoiceId, ["finalized", "voided", "draft"]);
  if (!invoice) throw AppError.notFound("invoice");
  return estimateCreditNote(invoice, await deps.creditNotes.ofInvoice(invoice.id), items);
}
