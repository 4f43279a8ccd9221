import { derivedUuid } from "@billing/bus";
import type { InvoiceViewData } from "@billing/contracts";
import type { Payment } from "../../domain/payment";
import { paymentEvents } from "../../events/payment-events";
import type { PaymentDeps } from "../deps";

/** The reference of the payment an advance_charges invoice records (its fees were paid before it was made). */
export const ADVANCE_CHARGES_REFERENCE = "Charges paid in advance";

/**
 * An `advance_charges` invoice gathers pay-in-advance fees already paid, so it is finalized paid;
 * as Lago does, a manual payment of its total records it (GET /payments lists it with the
 * invoice), dated when the invoice was made. Its id is derived from the invoice: a redelivered
 * finalization records nothing twice. It is not applied to the invoice, which is paid already.
 */
export async function recordAdvanceChargesPayment(
  deps: PaymentDeps,
  organizationId: string,
  invoice: InvoiceViewData,
): Promise<void> {
  if (
    invoice.invoice_type !== "advance_charges" ||
    invoice.payment_status !== "succeeded" ||
    invoice.total_amount_cents <= 0
  )
    return;
  const createdAt = new Date(invoice.created_at);
  const payment: Payment = {
    id: derivedUuid(`advance_charges_payment|${invoice.svc_id}`),
    organization_id: organizationId,
    customer_id: invoice.customer.svc_id,
    external_customer_id: invoice.customer.external_id,
    invoice_id: invoice.svc_id,
    invoice_number: invoice.number,
    amount_cents: invoice.total_amount_cents,
    currency: invoice.currency,
    type: "manual",
    status: "succeeded",
    payment_status: "succeeded",
    reference: ADVANCE_CHARGES_REFERENCE,
    provider: null,
    provider_payment_id: null,
    next_action: {},
    attempt: 0,
    applied: true,
    paid_at: invoice.issuing_date,
    created_at: createdAt,
    updated_at: createdAt,
  };
  const events = paymentEvents(payment, deps.clock.now());
  if ((await deps.payments.insert(payment, events)) === "ok") await deps.publishPayment(payment.id, events);
}
