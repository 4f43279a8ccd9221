import { Findings, isRecent, type BreachRecord, type CheckContext, type CheckOutcome } from "../breach";
import type { CustomerDoc, InvoiceDoc, PaymentDoc } from "../documents";
import { invoiceRecord } from "./invoice-totals";

/** What is still to be paid on an invoice (services/invoicing apply-payment.ts `dueOf`): total − paid − offset, never below 0. */
export const dueOf = (
  invoice: Pick<InvoiceDoc, "amounts" | "total_paid_amount_cents" | "offset_amount_cents">,
): number =>
  Math.max(
    0,
    invoice.amounts.total_amount_cents - (invoice.total_paid_amount_cents ?? 0) - (invoice.offset_amount_cents ?? 0),
  );

/**
 * provider_payment_attempt — every finalized invoice with something due (not paid, total − paid −
 * offset > 0) whose customer has a payment provider (the customer service's
 * billing_configuration.payment_provider) has at least one provider payment attempt
 * (services/payment/src/events/invoice-finalized.ts charges it when it is finalized).
 * An advance_charges invoice is paid when it is made and is not charged. Invoices updated within
 * the grace period are left for the next run (the charge follows the finalization's event).
 * It reads the customer's provider as it is now: a provider set after the invoice was finalized
 * makes a breach of an invoice that was rightly not charged then (the configuration's history is
 * not kept); and it accepts any provider name, also one the payment service does not run (such an
 * invoice is never charged, which is what the breach says).
 */
export function checkProviderAttempts(
  ctx: CheckContext,
  invoices: readonly InvoiceDoc[],
  payments: readonly PaymentDoc[],
  customers: readonly CustomerDoc[],
): CheckOutcome {
  const f = new Findings("provider_payment_attempt", ctx);
  const customerOf = new Map(customers.map((c) => [c._id, c]));
  const attempted = new Set(payments.filter((p) => p.type === "provider").map((p) => p.invoice_id));
  for (const invoice of invoices) {
    if (invoice.status !== "finalized" || invoice.invoice_type === "advance_charges") continue;
    if (invoice.payment_status === "succeeded" || dueOf(invoice) <= 0) continue;
    const customer = customerOf.get(invoice.customer_id);
    const provider = customer && !customer.deleted_at ? customer.billing_configuration?.payment_provider : null;
    if (!provider) continue;
    if (isRecent(ctx, invoice.updated_at)) {
      f.skipped++;
      continue;
    }
    f.checked++;
    if (!attempted.has(invoice._id)) {
      f.breach(
        "no_provider_attempt",
        `invoice ${invoice._id} (${invoice.number}) has ${dueOf(invoice)} due and its customer pays through ${provider}, but no provider payment was attempted`,
        [invoiceRecord(invoice), customerRecord(customer!)],
        { expected: 1, actual: 0 },
      );
    }
  }
  return f.outcome();
}

export function customerRecord(c: CustomerDoc): BreachRecord {
  const b = c.billing_configuration ?? {};
  return {
    type: "customer",
    id: c._id,
    fields: {
      external_id: c.external_id,
      payment_provider: b.payment_provider ?? null,
      payment_provider_code: b.payment_provider_code ?? null,
      provider_customer_id: b.provider_customer_id ?? null,
    },
  };
}
