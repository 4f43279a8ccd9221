import { renderInvoicePdf } from "@billing/documents";
import { AppError } from "@billing/errors";
import { DOCUMENT_STATUSES, invoiceDocument } from "../../domain/invoice-document";
import { VISIBLE_STATUSES, type Invoice, type InvoiceStatus } from "../../domain/invoice";
import type { StoredDocument } from "../../persistence/document-repository";
import { generatedEvents } from "../../events/invoice-events";
import type { DocumentDeps } from "./deps";
import { announceFirstPdf, storedOrRendered } from "./store-document";

/**
 * A finalized invoice's PDF: the stored one, else rendered now from the invoice and its parties
 * and stored (once: a concurrent request or replica that stored first wins, and both answer its
 * bytes). Generated at the first request rather than at finalization: a billing run finalizes
 * thousands of invoices that are mostly never opened, and rendering costs CPU and two customer
 * service calls each; once stored it is never rendered again, so every later request, the
 * signed link included, gets the same bytes.
 */
export async function invoicePdf(deps: DocumentDeps, organizationId: string, id: string): Promise<StoredDocument> {
  const invoice = await deps.invoices.find(organizationId, id, [
    ...VISIBLE_STATUSES,
    ...DOCUMENT_STATUSES,
  ] as InvoiceStatus[]);
  if (!invoice) throw AppError.notFound("invoice");
  return ensureInvoicePdf(deps, invoice);
}

export async function ensureInvoicePdf(deps: DocumentDeps, invoice: Invoice): Promise<StoredDocument> {
  if (!DOCUMENT_STATUSES.includes(invoice.status)) throw new AppError("not_allowed", "invoice_not_finalized");
  const stored = await storedOrRendered(
    deps,
    {
      kind: "invoice",
      organization_id: invoice.organization_id,
      id: invoice.id,
      file_name: `${invoice.number}.pdf`,
      created_at: new Date(`${invoice.issuing_date}T00:00:00Z`),
    },
    async () => {
      const { customer, entity } = await deps.parties.get(
        invoice.organization_id,
        invoice.external_customer_id,
        invoice.billing_entity_code,
      );
      return renderInvoicePdf(invoiceDocument(invoice, customer, entity));
    },
  );
  // Lago's invoice.generated
  await announceFirstPdf(deps, {
    events: (at) => generatedEvents(invoice, at),
    announce: (events) => deps.invoices.announceDocument(invoice.id, events),
    publish: deps.publishInvoice && ((events) => deps.publishInvoice!(invoice.id, events)),
  });
  return stored;
}
