import { derivedUuid, Subjects } from "@billing/bus";
import { domainEvent } from "@billing/contracts";
import type { Refund } from "../../domain/refund";
import type { RefundDeps } from "./deps";

/** What the payment service reads of a credit note's refund_requested. */
export interface RefundedNote {
  id: string;
  invoice_id: string;
  customer_id: string;
  external_customer_id: string;
  refund_amount_cents: number;
  currency: string;
}

/**
 * A credit note's refund paid back (Lago's CreditNotes::Refunds::*Service#create): through the
 * provider of the invoice's latest succeeded payment; none, or a manual one, and nothing is
 * executed (the note's refund stays pending, as Lago). Exactly once under redelivery and crashes:
 *   1. the refund is stored first, its id derived from the note's (a second delivery finds it);
 *   2. the provider is asked with that id as its idempotency key (asked again after a crash, it
 *      answers the same refund and pays back once);
 *   3. its outcome is written once (only over `pending`), with, when the provider refused it, the
 *      `refund.failed` event (Lago's credit_note.refund_failure webhook) in the same write;
 *   4. the outcome is told to the credit note (its refund_status; idempotent), then marked applied.
 * A refund the provider leaves pending is asked about again by the refund sweeper (settleRefund),
 * which also finishes an outcome a crash kept from the note.
 */
export async function refundCreditNote(
  deps: RefundDeps,
  organizationId: string,
  note: RefundedNote,
): Promise<Refund | null> {
  if (note.refund_amount_cents <= 0) return null;
  const id = derivedUuid(`refund of credit note ${note.id}`);
  let refund = await deps.refunds.findById(id);
  if (!refund) {
    const payment = await deps.payments.latestSucceeded(organizationId, note.invoice_id);
    const provider =
      payment?.type === "provider" && payment.provider ? deps.providers.get(payment.provider.type) : undefined;
    if (!payment || !provider?.refund) return null;
    const now = deps.clock.now();
    await deps.refunds.insert({
      id,
      organization_id: organizationId,
      credit_note_id: note.id,
      invoice_id: note.invoice_id,
      customer_id: note.customer_id,
      external_customer_id: note.external_customer_id,
      payment_id: payment.id,
      provider: payment.provider!,
      provider_payment_id: payment.provider_payment_id,
      amount_cents: note.refund_amount_cents,
      currency: note.currency,
      status: "pending",
      provider_refund_id: null,
      failure: null,
      applied: false,
      created_at: now,
      updated_at: now,
    });
    refund = (await deps.refunds.findById(id))!;
  }
  return settleRefund(deps, refund);
}

/** Steps 2–4 of refundCreditNote for a stored refund: the provider asked while it is pending, its outcome written once and told to the note once. */
export async function settleRefund(deps: RefundDeps, stored: Refund): Promise<Refund> {
  let refund = stored;
  const { organization_id: organizationId } = refund;
  if (refund.status === "pending") {
    const provider = deps.providers.get(refund.provider.type);
    if (!provider?.refund) return refund;
    const result = await provider.refund({
      idempotencyKey: refund.id,
      providerPaymentId: refund.provider_payment_id ?? "",
      amountCents: refund.amount_cents,
      currency: refund.currency,
      providerCustomerId: refund.provider.customer_id,
    });
    if (result.refundStatus === "pending") {
      // the provider decides later: the refund sweeper asks again after the recheck delay
      await deps.refunds.markAsked(refund.id, new Date());
      return refund;
    }
    const now = deps.clock.now();
    const change = {
      status: result.refundStatus,
      provider_refund_id: result.providerRefundId,
      failure: result.error ? { message: result.error.message, error_code: result.error.code } : null,
    };
    const events =
      change.status === "failed" && refund.kind !== "overpayment"
        ? [refundFailedEvent({ ...refund, ...change }, now)]
        : [];
    if (await deps.refunds.setOutcome(refund, change, now, events)) await deps.publishRefund(refund.id, events);
    refund = (await deps.refunds.findById(refund.id))!;
  }
  if (!refund.applied && refund.status !== "pending") {
    if (refund.kind === "overpayment")
      await deps.payments.setOverpaymentStatus(
        refund.payment_id,
        "refund_pending",
        refund.status === "succeeded" ? "refunded" : "refund_failed",
      );
    else await deps.creditNotes.setRefundStatus(organizationId, refund.credit_note_id, refund.status);
    await deps.refunds.markApplied(refund.id, refund.status);
    refund = { ...refund, applied: true };
  }
  return refund;
}

/** Lago's credit_note.refund_failure: what the provider said, with the note and the customer (its id derived from the refund's: once). */
function refundFailedEvent(refund: Refund, at: Date) {
  return domainEvent(Subjects.payment.refundFailed, {
    organizationId: refund.organization_id,
    occurredAt: at,
    id: derivedUuid(`${refund.id}|refund_failed`),
    data: {
      credit_note_payment_provider_refund_error: {
        svc_credit_note_id: refund.credit_note_id,
        svc_customer_id: refund.customer_id,
        external_customer_id: refund.external_customer_id,
        provider_customer_id: refund.provider.customer_id,
        payment_provider: refund.provider.type,
        payment_provider_code: refund.provider.code,
        provider_error: {
          message: refund.failure?.message ?? "Refund failed to perform",
          error_code: refund.failure?.error_code ?? null,
        },
      },
    },
  });
}

/**
 * The refund sweeper's work: refunds whose outcome has not reached their note yet (pending at the
 * provider and not asked about for `recheckMs`, or decided while a crash kept it from the note),
 * the oldest first, each settled as far as the provider lets it. Answers how many are still pending.
 */
export async function settleUnsettledRefunds(
  deps: RefundDeps,
  options: { recheckMs: number; limit?: number },
): Promise<number> {
  let pending = 0;
  for (const refund of await deps.refunds.unsettled(options.limit ?? 100, new Date(Date.now() - options.recheckMs))) {
    if ((await settleRefund(deps, refund)).status === "pending") pending++;
  }
  return pending;
}
