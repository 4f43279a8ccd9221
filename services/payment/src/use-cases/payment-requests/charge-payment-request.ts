import { Subjects } from "@billing/bus";
import { statusOfCharges, type PaymentRequest } from "../../domain/payment-request";
import { paymentRequestEvent } from "../../events/payment-request-events";
import { chargeInvoice, InvoiceBusy, settleAttempt } from "../payments/charge-invoice";
import type { PaymentRequestDeps } from "../deps";
import { boundedMap } from "./bounded-map";

/**
 * A new request's invoices charged through the customer's payment provider, each by its next
 * provider attempt (the attempt's payment id is the provider's idempotency key: two requests of
 * one invoice, or a retry, charge it once). An invoice whose last attempt is under way is
 * settled by that attempt; one whose last attempt waits for the customer's action, succeeded, or
 * that was paid meanwhile is not charged again. When every invoice is paid the request succeeds, when one is declined it fails: its
 * status and the payment_status_updated event in one update.
 */
export async function chargePaymentRequest(
  deps: PaymentRequestDeps,
  request: PaymentRequest,
  invoices: readonly { id: string }[],
): Promise<PaymentRequest> {
  const outcomes = await boundedMap(invoices, async ({ id }) => {
    const last = (await deps.payments.attemptsOf(request.organization_id, id)).at(-1);
    // an attempt under way (another request's, or the invoice's own) is finished with the same key: one charge
    if (last?.payment_status === "pending") return (await settleAttempt(deps, last)).payment_status;
    if (last && last.payment_status !== "failed") return last.payment_status;
    // as it is now: paid meanwhile (another request's charge, a manual payment) is not charged again
    const invoice = await deps.invoicing.find(request.organization_id, id);
    if (!invoice || invoice.payment_status === "succeeded") return invoice ? "succeeded" : null;
    try {
      const payment = await chargeInvoice(deps, invoice, request.organization_id, (last?.attempt ?? 0) + 1);
      return payment?.payment_status ?? null;
    } catch (err) {
      // another payment works on the invoice right now (a manual one being applied): not charged twice, the request stays pending
      if (err instanceof InvoiceBusy) return "processing";
      throw err;
    }
  });
  const status = statusOfCharges(outcomes);
  if (status === "pending") return request;
  const now = deps.clock.now();
  const settled: PaymentRequest = { ...request, payment_status: status, updated_at: now };
  const event = paymentRequestEvent(Subjects.payment.paymentRequestPaymentStatusUpdated, settled, now);
  if (!(await deps.paymentRequests.settle(request.id, status, now, event)))
    return (await deps.paymentRequests.find(request.organization_id, request.id)) ?? request;
  await deps.publishRequest(request.id, event);
  return settled;
}
