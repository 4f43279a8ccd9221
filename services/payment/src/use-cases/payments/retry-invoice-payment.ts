import { AppError } from "@billing/errors";
import type { Payment } from "../../domain/payment";
import type { PaymentDeps } from "../deps";
import { chargeInvoice } from "./charge-invoice";

/**
 * Lago's POST /invoices/{id}/retry_payment: a new provider attempt for a finalized invoice whose
 * payment failed. Two concurrent retries compute the same next attempt, hence the same payment:
 * one charge. Not allowed (405) while an attempt is still pending or processing, once the last
 * attempt succeeded (the invoice may have been read before a racing retry's attempt reached it),
 * for an invoice that is paid, not finalized, or whose customer has no payment provider.
 */
export async function retryInvoicePayment(
  deps: PaymentDeps,
  organizationId: string,
  invoiceId: string,
): Promise<Payment> {
  const invoice = await deps.invoicing.find(organizationId, invoiceId);
  if (!invoice) throw AppError.notFound("invoice");
  if (invoice.status !== "finalized" || invoice.payment_status === "succeeded")
    throw new AppError("not_allowed", "invalid_status");
  const attempts = await deps.payments.attemptsOf(organizationId, invoiceId);
  const last = attempts.at(-1);
  if (last && (last.payment_status === "pending" || last.payment_status === "processing"))
    throw new AppError("not_allowed", "payment_processing");
  if (last?.payment_status === "succeeded") throw new AppError("not_allowed", "invalid_status");
  const payment = await chargeInvoice(deps, invoice, organizationId, (last?.attempt ?? 0) + 1);
  if (!payment) throw new AppError("not_allowed", "no_payment_provider");
  return payment;
}
