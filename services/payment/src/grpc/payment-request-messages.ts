import type { PaymentMessages as M } from "@billing/contracts";
import type { Nullable } from "@billing/grpc";
import type { PaymentRequestView } from "../use-cases/payment-requests/read-payment-request-views";

/** Lago's PaymentRequestObject: the customer as the customer service answers it, each invoice as invoicing does. */
export function paymentRequestMessage({ request, customer, invoices }: PaymentRequestView): Nullable<M.PaymentRequest> {
  return {
    svc_id: request.id,
    email: request.email,
    amount_cents: request.amount_cents,
    amount_currency: request.currency,
    payment_status: request.payment_status,
    created_at: request.created_at.toISOString(),
    customer,
    invoices,
  };
}
