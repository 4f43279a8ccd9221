import type { PaymentMessages } from "@billing/contracts";
import { presentCustomer } from "./customers";
import { presentInvoice } from "./invoices";
import type { paymentRequestObject, ViewOf } from "./schemas";

/** Lago's PaymentRequestObject: the customer as GET /customers shows it, each invoice as GET /invoices/{id} does. */
export function presentPaymentRequest(p: PaymentMessages.PaymentRequest__Output) {
  return {
    svc_id: p.svc_id,
    email: p.email,
    amount_cents: Number(p.amount_cents),
    amount_currency: p.amount_currency,
    payment_status: p.payment_status,
    created_at: p.created_at,
    customer: p.customer ? presentCustomer(p.customer) : null,
    invoices: p.invoices.map(presentInvoice),
  } satisfies ViewOf<typeof paymentRequestObject>;
}
