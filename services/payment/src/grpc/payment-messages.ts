import type { PaymentMessages as M } from "@billing/contracts";
import type { Nullable } from "@billing/grpc";
import { actionAsked, type Payment } from "../domain/payment";

/** Lago's PaymentObject (one invoice per payment: payment requests come with their own issue). */
export function paymentMessage(p: Payment): Nullable<M.Payment> {
  return {
    svc_id: p.id,
    svc_customer_id: p.customer_id,
    external_customer_id: p.external_customer_id,
    invoice_ids: [p.invoice_id],
    invoice_numbers: [p.invoice_number],
    svc_payable_id: p.invoice_id,
    payable_type: "Invoice",
    amount_cents: p.amount_cents,
    amount_currency: p.currency,
    status: p.status,
    payment_status: p.payment_status,
    type: p.type,
    reference: p.reference,
    payment_provider_code: p.provider?.code ?? null,
    payment_provider_type: p.provider?.type ?? null,
    provider_payment_id: p.provider_payment_id,
    provider_customer_id: p.provider?.customer_id ?? null,
    next_action: actionAsked(p.next_action),
    created_at: p.created_at.toISOString(),
    paid_at: p.paid_at,
    overpaid_amount_cents: p.overpaid_amount_cents ?? 0,
    overpayment_status: p.overpayment_status ?? null,
  };
}
