import { derivedUuid } from "@billing/bus";
import { AppError } from "@billing/errors";
import { isFinal, type Payment } from "../../domain/payment";
import type { InvoiceRef } from "../../peers/invoicing";
import type { ChargeResult } from "../../peers/payment-provider";
import { paymentEvents } from "../../events/payment-events";
import type { PaymentDeps } from "../deps";
import { applyToInvoice } from "./apply-to-invoice";

/** Thrown when another payment works on the invoice (a manual payment being applied, or a provider attempt under way). */
export class InvoiceBusy extends AppError {
  constructor(readonly holder: { id: string; kind: "manual" | "provider" }) {
    super("not_allowed", "payment_processing");
  }
}

/**
 * One provider attempt at an invoice's due amount, through the customer's payment provider (none:
 * nothing is charged, null). The attempt's payment id is derived from the invoice and the attempt
 * number, and is the provider's idempotency key: a retry, a crash or a second replica stores one
 * payment and the provider charges once. The attempt first claims the invoice (no manual payment
 * lands while it charges or waits for the customer; InvoiceBusy while another payment holds it),
 * then reads what is due as it is now, is stored before the charge, its outcome written after,
 * then applied to the invoice; the sweeper finishes an attempt a crash interrupted.
 */
export async function chargeInvoice(
  deps: PaymentDeps,
  invoice: InvoiceRef,
  organizationId: string,
  attempt: number,
): Promise<Payment | null> {
  const billing = await deps.customers.billing(organizationId, invoice.external_customer_id);
  const provider = billing?.payment_provider ? deps.providers.get(billing.payment_provider) : undefined;
  if (!provider || invoice.status !== "finalized" || invoice.total_due_amount_cents <= 0) return null;
  const id = derivedUuid(`payment of invoice ${invoice.id}, attempt ${attempt}`);
  const stored = await deps.payments.findById(id);
  // this attempt was made before (a redelivery, a concurrent retry): finished with the same key
  if (stored) return settleAttempt(deps, stored);
  const holder = await deps.claims.take(invoice.id, organizationId, { id, kind: "provider" });
  if (holder) throw new InvoiceBusy(holder);
  // the invoice is this attempt's: what is due now (a manual payment may have landed just before)
  const current = await deps.invoicing.find(organizationId, invoice.id);
  if (
    !current ||
    current.status !== "finalized" ||
    current.payment_status === "succeeded" ||
    current.total_due_amount_cents <= 0
  ) {
    // paid by this very attempt, made meanwhile by a concurrent delivery (same id, same claim): answered as it is
    const raced = await deps.payments.findById(id);
    if (raced) return settleAttempt(deps, raced);
    await deps.claims.release(invoice.id, id);
    return null;
  }
  const now = deps.clock.now();
  await deps.payments.insert({
    id,
    organization_id: organizationId,
    customer_id: current.customer_id,
    external_customer_id: current.external_customer_id,
    invoice_id: current.id,
    invoice_number: current.number,
    amount_cents: current.total_due_amount_cents,
    currency: current.currency,
    type: "provider",
    status: "pending",
    payment_status: "pending",
    reference: null,
    provider: {
      code: billing!.payment_provider_code ?? provider.type,
      type: provider.type,
      customer_id: billing!.provider_customer_id,
    },
    provider_payment_id: null,
    next_action: {},
    attempt,
    applied: false,
    paid_at: null,
    created_at: now,
    updated_at: now,
  });
  return settleAttempt(deps, (await deps.payments.findById(id))!);
}

/** Charges a stored attempt that has no outcome yet (again, if a crash left it: same key, same charge), then applies it. */
export async function settleAttempt(deps: PaymentDeps, payment: Payment): Promise<Payment> {
  const provider = payment.provider ? deps.providers.get(payment.provider.type) : undefined;
  if (payment.payment_status === "pending" && provider) {
    const result = await provider.charge({
      idempotencyKey: payment.id,
      amountCents: payment.amount_cents,
      currency: payment.currency,
      providerCustomerId: payment.provider?.customer_id ?? null,
      returnUrl: deps.returnUrl,
    });
    return recordCharge(deps, payment, result);
  }
  return applyOnce(deps, payment);
}

/** A provider's answer written on its payment (over the state it was read in), then applied to the invoice. */
export async function recordCharge(deps: PaymentDeps, payment: Payment, result: ChargeResult): Promise<Payment> {
  const change = {
    status: result.status,
    payment_status: result.paymentStatus,
    provider_payment_id: result.providerPaymentId,
    next_action: result.nextAction,
  };
  const now = deps.clock.now();
  const events = paymentEvents({ ...payment, ...change }, now);
  if (await deps.payments.setOutcome(payment, change, now, events)) await deps.publishPayment(payment.id, events);
  return applyOnce(deps, (await deps.payments.findById(payment.id))!);
}

/** Applies a payment's outcome to its invoice unless that was done (then only frees the invoice, if a crash kept that from happening). */
export async function applyOnce(deps: PaymentDeps, payment: Payment): Promise<Payment> {
  if (!payment.applied) return applyToInvoice(deps, payment);
  if (isFinal(payment)) await deps.claims.release(payment.invoice_id, payment.id);
  return payment;
}
