import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import type { PaymentDeps } from "../use-cases/deps";
import { chargeInvoice } from "../use-cases/payments/charge-invoice";

export const INVOICE_SUBJECTS = [Subjects.invoicing.invoiceFinalized];

/**
 * billing.invoicing.invoice.finalized: an invoice with something to pay, of a customer with a
 * payment provider, is charged at once (its first attempt: a redelivery finds the same payment,
 * and the provider charges its key once).
 */
export function invoiceFinalizedHandler(deps: PaymentDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, INVOICE_SUBJECTS)) return;
    const { invoice } = eventData(envelope);
    if (invoice.total_amount_cents <= 0 || invoice.payment_status === "succeeded") return;
    const current = await deps.invoicing.find(envelope.organization_id, invoice.svc_id);
    if (current) await chargeInvoice(deps, current, envelope.organization_id, 1);
  };
}
