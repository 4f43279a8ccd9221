import { AppError } from "@billing/errors";
import { invoiceOutcome, type Payment } from "../../domain/payment";
import type { PaymentDeps } from "../deps";

/**
 * A payment's current outcome told to its invoice (invoicing applies each outcome of a payment
 * once), then the payment marked applied. An outcome invoicing refuses (the invoice was paid or
 * voided meanwhile) is marked applied too: asking again would change nothing.
 */
export async function applyToInvoice(deps: PaymentDeps, payment: Payment): Promise<void> {
  const outcome = invoiceOutcome(payment);
  if (outcome) {
    try {
      await deps.invoicing.applyPayment(payment.organization_id, { invoice_id: payment.invoice_id, payment_id: payment.id, amount_cents: payment.amount_cents, outcome });
    } catch (err) {
      if (!(err instanceof AppError && err.kind === "unprocessable")) throw err;
    }
  }
  await deps.payments.markApplied(payment.id, payment.payment_status);
}
