import { RetryLater, Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import type { PaymentDeps } from "../use-cases/deps";
import { chargeInvoice, InvoiceBusy } from "../use-cases/payments/charge-invoice";
import { recordAdvanceChargesPayment } from "../use-cases/payments/record-advance-charges-payment";

export const INVOICE_SUBJECTS = [Subjects.invoicing.invoiceFinalized];

/**
 * billing.invoicing.invoice.finalized: an invoice with something to pay, of a customer with a
 * payment provider, is charged at once (its first attempt: a redelivery finds the same payment,
 * and the provider charges its key once; while a manual payment holds the invoice, it waits for it
 * and charges what is left); an advance_charges invoice, paid when it is made, gets
 * the manual payment that records it.
 */
export function invoiceFinalizedHandler(deps: PaymentDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, INVOICE_SUBJECTS)) return;
    const { invoice } = eventData(envelope);
    await recordAdvanceChargesPayment(deps, envelope.organization_id, invoice);
    if (invoice.total_amount_cents <= 0 || invoice.payment_status === "succeeded") return;
    const current = await deps.invoicing.find(envelope.organization_id, invoice.svc_id);
    if (!current) return;
    try {
      await chargeInvoice(deps, current, envelope.organization_id, 1);
    } catch (err) {
      // a manual payment is being applied: charged (or not, if it paid everything) once it is
      if (err instanceof InvoiceBusy) throw new RetryLater(`invoice ${current.id} is being paid`, 1_000);
      throw err;
    }
  };
}
