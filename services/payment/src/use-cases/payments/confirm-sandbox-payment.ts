import { AppError } from "@billing/errors";
import type { Payment } from "../../domain/payment";
import type { PaymentDeps } from "../deps";
import { applyOnce, recordCharge } from "./charge-invoice";

/**
 * The sandbox provider's redirect came back: the customer completed the action a processing
 * payment asked for. The payment succeeds and is applied to its invoice, once (a second
 * confirmation answers the same payment).
 */
export async function confirmSandboxPayment(
  deps: PaymentDeps,
  organizationId: string,
  paymentId: string,
): Promise<Payment> {
  const payment = await deps.payments.find(organizationId, paymentId);
  const sandbox = deps.providers.get("sandbox");
  if (!payment || payment.provider?.type !== "sandbox" || !sandbox) throw AppError.notFound("payment");
  if (payment.payment_status === "processing") return recordCharge(deps, payment, await sandbox.confirm(payment.id));
  // confirmed before: answered as it is (applied, if a crash left it unapplied)
  return applyOnce(deps, payment);
}
