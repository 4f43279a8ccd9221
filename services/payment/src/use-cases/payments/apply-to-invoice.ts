import { AppError } from "@billing/errors";
import { invoiceOutcome, isFinal, type Payment } from "../../domain/payment";
import { overpaidEvent, paymentEvents } from "../../events/payment-events";
import type { PaymentDeps } from "../deps";

/**
 * A payment's current outcome told to its invoice (invoicing applies each outcome of a payment
 * once), then the payment marked applied, and its claim on the invoice freed once the outcome is
 * final. Money is never lost or doubled here:
 * - a provider's success is applied with `allow_overpayment`: what the invoice cannot take (it was
 *   paid, or credited, meanwhile) is recorded by invoicing as this payment's overpayment, in the
 *   same write; an invoice that can take nothing any more (voided) leaves the whole amount
 *   overpaid. The overpayment is then recorded on the payment once, announced
 *   (`payment.overpaid`) and given back;
 * - a manual payment the invoice refuses (credited or voided since it was checked, under the
 *   claim) was never recorded for its client: it is discarded and the refusal answered;
 * - a manual payment's events are stored by the write that marks it applied: nothing is announced
 *   of a payment that did not land.
 */
export async function applyToInvoice(deps: PaymentDeps, payment: Payment): Promise<Payment> {
  const outcome = invoiceOutcome(payment);
  let overpaid = 0;
  if (outcome) {
    const providerSuccess = payment.type === "provider" && outcome === "succeeded";
    try {
      const invoice = await deps.invoicing.applyPayment(payment.organization_id, {
        invoice_id: payment.invoice_id,
        payment_id: payment.id,
        amount_cents: payment.amount_cents,
        outcome,
        allow_overpayment: providerSuccess,
      });
      if (providerSuccess) overpaid = invoice.overpayments.find((o) => o.payment_id === payment.id)?.amount_cents ?? 0;
    } catch (err) {
      if (!(err instanceof AppError && err.kind === "unprocessable")) throw err;
      if (payment.type === "manual") {
        await deps.payments.discardRefusedManual(payment.id);
        await deps.claims.release(payment.invoice_id, payment.id);
        throw AppError.validation({ amount_cents: ["greater_than_invoice_remaining_amount"] });
      }
      // the invoice takes no outcome any more (voided): a provider's success is all given back
      if (providerSuccess) overpaid = payment.amount_cents;
    }
  }
  const now = deps.clock.now();
  let applied: Payment = { ...payment, applied: true };
  if (overpaid > 0) applied = await recordOverpayment(deps, applied, overpaid, now);
  const events = payment.type === "manual" ? paymentEvents(payment, now) : [];
  if (await deps.payments.markApplied(payment.id, payment.payment_status, events))
    await deps.publishPayment(payment.id, events);
  if (isFinal(payment)) await deps.claims.release(payment.invoice_id, payment.id);
  return applied;
}

/**
 * The overpaid part written on the payment once, with its event; then its giving back started (the
 * refund sweeper finishes it), or left to the organization when it chose so or the provider cannot refund.
 */
async function recordOverpayment(
  deps: PaymentDeps,
  payment: Payment,
  amountCents: number,
  now: Date,
): Promise<Payment> {
  const refundable = payment.provider ? deps.providers.get(payment.provider.type)?.refund !== undefined : false;
  // the organization's choice: refunded through the provider (default), or left to it (manual)
  const status =
    refundable && (await deps.settings.overpaymentHandling(payment.organization_id)) === "refund"
      ? "refund_pending"
      : "to_give_back";
  const event = overpaidEvent(payment, { amount_cents: amountCents, status }, now);
  if (await deps.payments.recordOverpayment(payment.id, amountCents, status, now, [event]))
    await deps.publishPayment(payment.id, [event]);
  const recorded = (await deps.payments.findById(payment.id)) ?? payment;
  // a failure here loses nothing: the overpayment stays refund_pending, which the refund sweeper asks about again
  if (recorded.overpayment_status === "refund_pending") await deps.giveBack?.(recorded).catch(() => undefined);
  return recorded;
}
