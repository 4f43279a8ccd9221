import { derivedUuid } from "@billing/bus";
import type { Payment } from "../../domain/payment";
import type { Refund } from "../../domain/refund";
import type { RefundDeps } from "./deps";
import { settleRefund } from "./refund-credit-note";

/**
 * A payment's overpaid part given back through the provider that took it, exactly once: the
 * refund is stored first, its id derived from the payment's (a retry, a sweep or a second replica
 * finds it), the provider asked with that id as idempotency key, its outcome written once and then
 * set on the payment (`overpayment_status` refunded or refund_failed). Pending at the provider, the
 * refund sweeper asks again.
 */
export async function refundOverpayment(deps: RefundDeps, payment: Payment): Promise<Refund | null> {
  const amount = payment.overpaid_amount_cents ?? 0;
  if (amount <= 0 || payment.overpayment_status !== "refund_pending" || !payment.provider) return null;
  const id = overpaymentRefundId(payment.id);
  let refund = await deps.refunds.findById(id);
  if (!refund) {
    const now = deps.clock.now();
    await deps.refunds.insert({
      id,
      organization_id: payment.organization_id,
      kind: "overpayment",
      credit_note_id: payment.id,
      invoice_id: payment.invoice_id,
      customer_id: payment.customer_id,
      external_customer_id: payment.external_customer_id,
      payment_id: payment.id,
      provider: payment.provider,
      provider_payment_id: payment.provider_payment_id,
      amount_cents: amount,
      currency: payment.currency,
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

const overpaymentRefundId = (paymentId: string) => derivedUuid(`refund of the overpayment of payment ${paymentId}`);

/**
 * The refund sweeper's part for overpayments: those whose refund was never stored (a crash, the
 * provider away when it was recorded) are refunded now; stored ones are the unsettled refunds'.
 */
export async function refundPendingOverpayments(deps: RefundDeps, limit = 100): Promise<void> {
  for (const payment of await deps.payments.overpaymentsToRefund(limit)) {
    if (!(await deps.refunds.findById(overpaymentRefundId(payment.id)))) await refundOverpayment(deps, payment);
  }
}
