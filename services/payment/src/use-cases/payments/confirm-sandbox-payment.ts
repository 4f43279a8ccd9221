import { AppError } from "@billing/errors";
import type { Payment } from "../../domain/payment";
import type { PaymentDeps } from "../deps";
import { applyToInvoice } from "./apply-to-invoice";

/**
 * The sandbox provider's redirect came back: the customer completed the action a processing
 * payment asked for. The payment succeeds and is applied to its invoice, once (a second
 * confirmation answers the same payment).
 */
export async function confirmSandboxPayment(deps: PaymentDeps, organizationId: string, paymentId: string): Promise<Payment> {
  const payment = await deps.payments.find(organizationId, paymentId);
  const sandbox = deps.providers.get("sandbox");
  if (!payment || payment.provider?.type !== "sandbox" || !sandbox) throw AppError.notFound("payment");
  if (payment.payment_status === "processing") {
    const result = await sandbox.confirm(payment.id);
    await deps.payments.setOutcome(payment, {
      status: result.status, payment_status: result.paymentStatus, provider_payment_id: result.providerPaymentId, next_action: result.nextAction,
    }, deps.clock.now());
  }
  const now = (await deps.payments.findById(payment.id))!;
  if (!now.applied) await applyToInvoice(deps, now);
  return { ...now, applied: true };
}
