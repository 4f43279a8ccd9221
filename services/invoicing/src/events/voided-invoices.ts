import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import { restoreVoidedInvoice } from "../use-cases/invoices/restore-voided-invoice";
import type { InvoiceDeps } from "../use-cases/invoices/deps";

export const VOIDED_INVOICE_SUBJECTS = [Subjects.invoicing.invoiceVoided];

/**
 * The service's own billing.invoicing.invoice.voided: what the invoice consumed given back to
 * coupons and wallets (done right after the void too; this backs it up after a crash, each once).
 */
export function voidedInvoiceEventHandler(deps: Pick<InvoiceDeps, "invoices" | "voidRecredits">) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, VOIDED_INVOICE_SUBJECTS)) return;
    const { invoice: view } = eventData(envelope);
    const invoice = await deps.invoices.find(envelope.organization_id, view.svc_id);
    if (invoice) await restoreVoidedInvoice(deps, invoice);
  };
}
