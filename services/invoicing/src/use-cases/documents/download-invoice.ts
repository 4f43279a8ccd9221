import { AppError } from "@billing/errors";
import { DOCUMENT_STATUSES } from "../../domain/invoice-document";
import type { Invoice } from "../../domain/invoice";
import type { DocumentDeps } from "./deps";
import { ensureInvoicePdf } from "./invoice-pdf";

/**
 * POST /invoices/{id}/download (Lago): a finalized invoice's PDF is generated if it is not yet,
 * and the invoice is answered; a draft is answered as it is (it has no file yet, as in Lago).
 */
export async function downloadInvoice(deps: DocumentDeps, organizationId: string, id: string): Promise<Invoice> {
  const invoice = await deps.invoices.find(organizationId, id);
  if (!invoice) throw AppError.notFound("invoice");
  if (DOCUMENT_STATUSES.includes(invoice.status)) await ensureInvoicePdf(deps, invoice);
  return invoice;
}
