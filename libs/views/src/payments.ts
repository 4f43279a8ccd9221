import type { PaymentMessages } from "@billing/contracts";
import type { paymentObject, ViewOf } from "./schemas";

/** Lago's PaymentObject (a manual payment has no provider: its provider keys are null, as Lago sends them). */
export function presentPayment(p: PaymentMessages.Payment__Output) {
  return {
    svc_id: p.svc_id,
    svc_customer_id: p.svc_customer_id,
    external_customer_id: p.external_customer_id,
    invoice_ids: p.invoice_ids,
    invoice_numbers: p.invoice_numbers,
    svc_payable_id: p.svc_payable_id,
    payable_type: p.payable_type,
    amount_cents: Number(p.amount_cents),
    amount_currency: p.amount_currency,
    status: p.status,
    payment_status: p.payment_status,
    type: p.type,
    reference: p.reference ?? null,
    payment_provider_code: p.payment_provider_code ?? null,
    payment_provider_type: p.payment_provider_type ?? null,
    external_payment_id: p.provider_payment_id ?? null,
    provider_payment_id: p.provider_payment_id ?? null,
    provider_customer_id: p.provider_customer_id ?? null,
    next_action: presentNextAction(p.next_action),
    created_at: p.created_at,
    overpaid_amount_cents: Number(p.overpaid_amount_cents),
    overpayment_status: (p.overpayment_status ?? null) as ViewOf<typeof paymentObject>["overpayment_status"],
  } satisfies ViewOf<typeof paymentObject>;
}

/** Lago's next_action: the action asked of the customer, {} when none. */
function presentNextAction(a: PaymentMessages.NextAction__Output | null) {
  if (!a?.type) return {};
  return {
    type: a.type,
    ...(a.redirect_to_url
      ? { redirect_to_url: { url: a.redirect_to_url.url, return_url: a.redirect_to_url.return_url } }
      : {}),
  };
}
