import type { Envelope } from "@billing/bus";
import { Subjects } from "@billing/bus";
import { domainEvent, type EventDataInput } from "@billing/contracts";
import type { PaymentRequest } from "../domain/payment-request";

export type PaymentRequestEventType =
  typeof Subjects.payment.paymentRequestCreated | typeof Subjects.payment.paymentRequestPaymentStatusUpdated;

/**
 * billing.payment.payment_request.created|payment_status_updated, carrying the request's view
 * (checked against the subject's schema in @billing/contracts); stored in the request's outbox by
 * the write that makes the change.
 */
export function paymentRequestEvent(
  type: PaymentRequestEventType,
  request: PaymentRequest,
  now: Date,
): Envelope<EventDataInput<PaymentRequestEventType>> {
  return domainEvent(type, {
    organizationId: request.organization_id,
    data: {
      payment_request: {
        svc_id: request.id,
        svc_customer_id: request.customer_id,
        external_customer_id: request.external_customer_id,
        svc_invoice_ids: request.invoice_ids,
        amount_cents: request.amount_cents,
        amount_currency: request.currency,
        payment_status: request.payment_status,
        email: request.email,
        created_at: request.created_at.toISOString(),
      },
    },
    occurredAt: now,
  });
}
