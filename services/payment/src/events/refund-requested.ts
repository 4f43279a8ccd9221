import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import type { RefundDeps } from "../use-cases/refunds/deps";
import { refundCreditNote } from "../use-cases/refunds/refund-credit-note";

export const REFUND_SUBJECTS = [Subjects.invoicing.creditNoteRefundRequested];

/**
 * billing.invoicing.credit_note.refund_requested: the note's refund paid back through the provider
 * of the invoice's payment (a redelivery finds the refund stored, the provider answers its key once).
 */
export function refundRequestedHandler(deps: RefundDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, REFUND_SUBJECTS)) return;
    const { credit_note: note } = eventData(envelope);
    await refundCreditNote(deps, envelope.organization_id, {
      id: note.svc_id,
      invoice_id: note.svc_invoice_id,
      customer_id: note.customer.svc_id,
      external_customer_id: note.customer.external_id,
      refund_amount_cents: note.refund_amount_cents,
      currency: note.currency,
    });
  };
}
