import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import type { Payment } from "../../domain/payment";
import { paymentEvents } from "../../events/payment-events";
import type { PaymentDeps } from "../deps";
import { applyToInvoice } from "./apply-to-invoice";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Lago's POST /payments: a payment the client received outside any provider, applied to its
 * finalized invoice. Refused (422, nothing stored) when the invoice is a draft or voided, or the
 * amount is above what is still due.
 */
export async function createPayment(
  deps: PaymentDeps,
  organizationId: string,
  request: { invoice_id: string; amount_cents: number; reference: string; paid_at?: string | null },
): Promise<Payment> {
  const problems: Record<string, string[]> = {};
  if (!Number.isSafeInteger(request.amount_cents) || request.amount_cents <= 0) problems.amount_cents = ["value_is_out_of_range"];
  if (!request.reference || request.reference.length > 40) problems.reference = ["value_is_invalid"];
  if (request.paid_at && (!DAY.test(request.paid_at) || Number.isNaN(Date.parse(request.paid_at)))) problems.paid_at = ["invalid_date"];
  if (Object.keys(problems).length) throw AppError.validation(problems);
  const invoice = await deps.invoicing.find(organizationId, request.invoice_id);
  if (!invoice) throw AppError.notFound("invoice");
  if (invoice.status !== "finalized" || invoice.payment_status === "succeeded") throw AppError.validation({ invoice_id: ["invalid_invoice_status_or_payment_status"] });
  if (request.amount_cents > invoice.total_due_amount_cents) throw AppError.validation({ amount_cents: ["greater_than_invoice_remaining_amount"] });
  const now = deps.clock.now();
  const payment: Payment = {
    id: randomUUID(), organization_id: organizationId, customer_id: invoice.customer_id, external_customer_id: invoice.external_customer_id,
    invoice_id: invoice.id, invoice_number: invoice.number, amount_cents: request.amount_cents, currency: invoice.currency,
    type: "manual", status: "succeeded", payment_status: "succeeded", reference: request.reference, provider: null, provider_payment_id: null,
    next_action: {}, attempt: 0, applied: false, paid_at: request.paid_at ?? now.toISOString().slice(0, 10), created_at: now, updated_at: now,
  };
  const events = paymentEvents(payment, now);
  await deps.payments.insert(payment, events);
  await deps.publishPayment(payment.id, events);
  await applyToInvoice(deps, payment);
  return { ...payment, applied: true };
}
