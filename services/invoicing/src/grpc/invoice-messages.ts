import type { InvoicingMessages } from "@billing/contracts";
import type { Invoice } from "../domain/invoice";
import type { InvoiceFilter } from "../persistence/invoice-repository";

/** Proto ⇄ domain for invoices. */
export const invoiceMessage = (invoice: Invoice) => ({ invoice_json: JSON.stringify(invoice.view) });

export function invoiceFilterOf(req: InvoicingMessages.ListInvoicesRequest__Output): InvoiceFilter {
  return {
    externalCustomerId: req.external_customer_id || undefined,
    status: req.status || undefined,
    paymentStatus: req.payment_status || undefined,
    invoiceType: req.invoice_type || undefined,
    issuingDateFrom: req.issuing_date_from || undefined,
    issuingDateTo: req.issuing_date_to || undefined,
    statuses: req.statuses.length ? req.statuses : undefined,
    paymentStatuses: req.payment_statuses.length ? req.payment_statuses : undefined,
  };
}
