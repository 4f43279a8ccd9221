import { derivedUuid, Subjects, type Envelope } from "@billing/bus";
import { domainEvent } from "@billing/contracts";
import { actionAsked, type OverpaymentStatus, type Payment } from "../domain/payment";

const P = Subjects.payment;

/**
 * What a payment's new state announces (stored in its outbox by the same write): `succeeded`,
 * `failed`, or `requires_action` when the provider waits for the customer (Lago's
 * payment.requires_action and payment.succeeded webhooks come from these).
 */
export function paymentEvents(payment: Payment, at: Date): Envelope[] {
  const view = paymentView(payment);
  const subject =
    payment.payment_status === "succeeded"
      ? P.paymentSucceeded
      : payment.payment_status === "failed"
        ? P.paymentFailed
        : payment.payment_status === "processing" && actionAsked(payment.next_action)
          ? P.paymentRequiresAction
          : null;
  if (!subject) return [];
  return [
    domainEvent(subject, {
      organizationId: payment.organization_id,
      occurredAt: at,
      data: { payment: view },
    }),
  ];
}

/** A succeeded payment's part its invoice could not take (its id derived from the payment's: announced once). */
export function overpaidEvent(
  payment: Payment,
  overpaid: { amount_cents: number; status: OverpaymentStatus },
  at: Date,
): Envelope {
  return domainEvent(P.paymentOverpaid, {
    organizationId: payment.organization_id,
    occurredAt: at,
    id: derivedUuid(`${payment.id}|overpaid`),
    data: {
      payment: {
        ...paymentView(payment),
        overpaid_amount_cents: overpaid.amount_cents,
        overpayment_status: overpaid.status,
      },
    },
  });
}

const paymentView = (payment: Payment) => ({
  svc_id: payment.id,
  svc_customer_id: payment.customer_id,
  external_customer_id: payment.external_customer_id,
  svc_invoice_ids: [payment.invoice_id],
  amount_cents: payment.amount_cents,
  amount_currency: payment.currency,
  payment_status: payment.payment_status,
  type: payment.type,
  created_at: payment.created_at.toISOString(),
});
