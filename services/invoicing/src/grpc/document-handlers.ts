import type { InvoiceDocumentRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import type { Clock } from "@billing/clock";
import type { Invoice } from "../domain/invoice";
import type { DocumentDeps } from "../use-cases/documents/deps";
import { downloadInvoice } from "../use-cases/documents/download-invoice";
import { invoicePdf } from "../use-cases/documents/invoice-pdf";
import type { CopyRepository } from "../persistence/copy-repository";
import { invoiceReply } from "./invoice-reply";

/** billing.invoicing.v1.InvoiceDocumentService: proto in, use case, proto out (always within the caller's organization). */
export function documentHandlers(
  deps: DocumentDeps & { clock: Clock; copies: CopyRepository; fileUrl(invoice: Invoice): string | null },
): Omit<Handlers<InvoiceDocumentRpc>, "DownloadCreditNote" | "GetCreditNotePdf"> {
  return {
    DownloadInvoice: async (req) => {
      return invoiceReply(deps, await downloadInvoice(deps, req.organization_id, req.id));
    },
    GetInvoicePdf: async (req) => {
      const doc = await invoicePdf(deps, req.organization_id, req.id);
      return { pdf: doc.pdf, file_name: doc.file_name, sha256: doc.sha256 };
    },
  };
}
