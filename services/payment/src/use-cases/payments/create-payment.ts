import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import type { Payment } from "../../domain/payment";
import type { InvoiceRef } from "../../peers/invoicing";
import type { PaymentDeps } from "../deps";
import { applyToInvoice } from "./apply-to-invoice";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** How long a manual payment waits for another manual payment of the same invoice to be applied (they hold it for milliseconds). */
const WAIT_FOR_MANUAL_MS = 3_000;

/**
 * Lago's POST /payments: a payment the client received outside any provider, applied to its
 * finalized invoice. Refused (422, nothing stored) when the invoice is a draft or voided, or the
 * amount is above what is still due, or while a provider attempt for the invoice is charging or
 * waiting for the customer's action (`payment_processing`: the customer would pay twice).
 *
 * The payment first claims the invoice, so what is due is read with no other payment under way:
 * two concurrent manual payments are applied one after the other (the second checked against what
 * the first left), and a provider attempt cannot start in between. A crash after the claim leaves
 * it to the sweeper (which applies a stored payment, or frees a claim whose payment never was).
 */
export async function createPayment(
  deps: PaymentDeps,
  organizationId: string,
  request: { invoice_id: string; amount_cents: number; reference: string; paid_at?: string | null },
): Promise<Payment> {
  const problems: Record<string, string[]> = {};
  if (!Number.isSafeInteger(request.amount_cents) || request.amount_cents <= 0)
    problems.amount_cents = ["value_is_out_of_range"];
  if (!request.reference || request.reference.length > 40) problems.reference = ["value_is_invalid"];
  if (request.paid_at && (!DAY.test(request.paid_at) || Number.isNaN(Date.parse(request.paid_at))))
    problems.paid_at = ["invalid_date"];
  if (Object.keys(problems).length) throw AppError.validation(problems);
  checkPayable(await deps.invoicing.find(organizationId, request.invoice_id), request.amount_cents);
  const id = randomUUID();
  await claimInvoice(deps, organizationId, request.invoice_id, id);
  let stored = false;
  try {
    // what is due now, with no other payment under way
    const invoice = checkPayable(await deps.invoicing.find(organizationId, request.invoice_id), request.amount_cents);
    const now = deps.clock.now();
    const payment: Payment = {
      id,
      organization_id: organizationId,
      customer_id: invoice.customer_id,
      external_customer_id: invoice.external_customer_id,
      invoice_id: invoice.id,
      invoice_number: invoice.number,
      amount_cents: request.amount_cents,
      currency: invoice.currency,
      type: "manual",
      status: "succeeded",
      payment_status: "succeeded",
      reference: request.reference,
      provider: null,
      provider_payment_id: null,
      next_action: {},
      attempt: 0,
      applied: false,
      paid_at: request.paid_at ?? now.toISOString().slice(0, 10),
      created_at: now,
      updated_at: now,
    };
    // stored before it is applied (a crash leaves it to the sweeper); its events come with the write that marks it applied
    await deps.payments.insert(payment);
    stored = true;
    // applied, it frees the invoice; refused, it is discarded and frees it; a failure keeps the claim for the sweeper's apply
    return await applyToInvoice(deps, payment);
  } catch (err) {
    if (!stored) await deps.claims.release(request.invoice_id, id);
    throw err;
  }
}

/** The invoice as it must be to take this amount (404 unknown, 422 not payable, or more than is due). */
function checkPayable(invoice: InvoiceRef | null, amountCents: number): InvoiceRef {
  if (!invoice) throw AppError.notFound("invoice");
  if (invoice.status !== "finalized" || invoice.payment_status === "succeeded")
    throw AppError.validation({ invoice_id: ["invalid_invoice_status_or_payment_status"] });
  if (amountCents > invoice.total_due_amount_cents)
    throw AppError.validation({ amount_cents: ["greater_than_invoice_remaining_amount"] });
  return invoice;
}

/** Takes the invoice's claim for a manual payment: 422 `payment_processing` while a provider attempt holds it, a short wait while another manual payment does. */
async function claimInvoice(
  deps: PaymentDeps,
  organizationId: string,
  invoiceId: string,
  paymentId: string,
): Promise<void> {
  const until = Date.now() + WAIT_FOR_MANUAL_MS;
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    const holder = await deps.claims.take(invoiceId, organizationId, { id: paymentId, kind: "manual" });
    if (!holder) return;
    if (holder.kind === "provider") throw AppError.validation({ invoice_id: ["payment_processing"] });
    if (Date.now() >= until)
      throw new AppError(
        "unavailable",
        "payment_in_progress",
        undefined,
        "another payment of this invoice is being applied: try again",
      );
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
