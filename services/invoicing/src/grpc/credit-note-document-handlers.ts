import type { InvoiceDocumentRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import type { CreditNote } from "../domain/credit-note";
import type { DocumentDeps } from "../use-cases/documents/deps";
import { creditNotePdf, downloadCreditNote } from "../use-cases/documents/credit-note-pdf";
import { creditNoteMessage, feeMessagesOf } from "./credit-note-messages";

/** billing.invoicing.v1.InvoiceDocumentService's credit note RPCs (always within the caller's organization). */
export function creditNoteDocumentHandlers(
  deps: DocumentDeps & { creditNoteFileUrl(note: CreditNote): string | null },
): Pick<Handlers<InvoiceDocumentRpc>, "DownloadCreditNote" | "GetCreditNotePdf"> {
  return {
    DownloadCreditNote: async (req) => {
      const note = await downloadCreditNote(deps, req.organization_id, req.id);
      const [invoice] = await deps.invoices.findByIds([note.invoice_id]);
      return {
        credit_note: creditNoteMessage(
          note,
          invoice ? feeMessagesOf(invoice) : new Map(),
          deps.creditNoteFileUrl(note),
        ),
      };
    },
    GetCreditNotePdf: async (req) => {
      const doc = await creditNotePdf(deps, req.organization_id, req.id);
      return { pdf: doc.pdf, file_name: doc.file_name, sha256: doc.sha256 };
    },
  };
}
