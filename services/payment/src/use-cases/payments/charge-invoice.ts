import { derivedUuid } from "@billing/bus";
import type { Payment } from "../../domain/payment";
import type { InvoiceRef } from "../../peers/invoicing";
import type { ChargeResult } from "../../peers/payment-provider";
import { paymentEvents } from "../../events/payment-events";
import type { PaymentDeps } from "../deps";
import { applyToInvoice } from "./apply-to-invoice";

/**
 * One provider attempt at an invoice's due amount, through the customer's payment provider (none:
 * nothing is charged, null). The attempt's payment id is derived from the invoice and the attempt
 * number, and is the provider's idempotency key: a retry, a crash or a second replica stores one
 * payment and the provider charges once. Stored before the charge, its outcome written after,
 * then applied to the invoice; the sweeper finishes an attempt a crash interrupted.
 */
export async function chargeInvoice(deps: PaymentDeps, invoice: InvoiceRef, organizationId: string, attempt: number): Promise<Payment | null> {
  const billing = await deps.customers.billing(organizationId, invoice.external_customer_id);
  const provider = billing?.payment_provider ? deps.providers.get(billing.payment_provider) : undefined;
  if (!provider || invoice.status !== "finalized" || invoice.total_due_amount_cents <= 0) return null;
  const now = deps.clock.now();
  const id = derivedUuid(`payment of invoice ${invoice.id}, attempt ${attempt}`);
  await deps.payments.insert({
    id, organization_id: organizationId, customer_id: invoice.customer_id, external_customer_id: invoice.external_customer_id,
    invoice_id: invoice.id, invoice_number: invoice.number, amount_cents: invoice.total_due_amount_cents, currency: invoice.currency,
    type: "provider", status: "pending", payment_status: "pending", reference: null,
    provider: { code: billing!.payment_provider_code ?? provider.type, type: provider.type, customer_id: billing!.provider_customer_id },
    provider_payment_id: null, next_action: {}, attempt, applied: false, paid_at: null, created_at: now, updated_at: now,
  });
  return settleAttempt(deps, (await deps.payments.findById(id))!);
}

/** Charges a stored attempt that has no outcome yet (again, if a crash left it: same key, same charge), then applies it. */
export async function settleAttempt(deps: PaymentDeps, payment: Payment): Promise<Payment> {
  const provider = payment.provider ? deps.providers.get(payment.provider.type) : undefined;
  if (payment.payment_status === "pending" && provider) {
    const result = await provider.charge({
      idempotencyKey: payment.id, amountCents: payment.amount_cents, currency: payment.currency,
      providerCustomerId: payment.provider?.customer_id ?? null, returnUrl: deps.returnUrl,
    });
    return recordCharge(deps, payment, result);
  }
  return applyOnce(deps, payment);
}

/** A provider's answer written on its payment (over the state it was read in), then applied to the invoice. */
export async function recordCharge(deps: PaymentDeps, payment: Payment, result: ChargeResult): Promise<Payment> {
  const change = { status: result.status, payment_status: result.paymentStatus, provider_payment_id: result.providerPaymentId, next_action: result.nextAction };
  const now = deps.clock.now();
  const events = paymentEvents({ ...payment, ...change }, now);
  if (await deps.payments.setOutcome(payment, change, now, events)) await deps.publishPayment(payment.id, events);
  return applyOnce(deps, (await deps.payments.findById(payment.id))!);
}

/** Applies a payment's outcome to its invoice unless that was done. */
export async function applyOnce(deps: PaymentDeps, payment: Payment): Promise<Payment> {
  if (payment.applied) return payment;
  await applyToInvoice(deps, payment);
  return { ...payment, applied: true };
}
