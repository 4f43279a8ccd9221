import { sumCents } from "@billing/pricing";
import { Findings, isRecent, iso, type BreachRecord, type CheckContext, type CheckOutcome } from "../breach";
import type { InvoiceDoc, PaymentDoc } from "../documents";
import { invoiceRecord } from "./invoice-totals";

/** A payment's overpaid part as the payment service records it (absent: none). */
export const overpaidOf = (payment: Pick<PaymentDoc, "overpaid_amount_cents">) => payment.overpaid_amount_cents ?? 0;

/**
 * invoice_payments — what an invoice was paid is what its succeeded payments brought
 * (services/payment/src/use-cases/payments, services/invoicing/src/use-cases/invoices/apply-payment.ts):
 *  - Σ (amount − overpaid_amount_cents) of its succeeded payments never exceeds its total less what
 *    credit notes offset of it: a provider's success the invoice could not take must be recorded
 *    as that payment's overpayment (`overpaid_amount_cents`, absent = 0);
 *  - its total_paid_amount_cents equals that sum (a manual payment, a provider payment, and the
 *    payment that records an advance_charges invoice's prepaid fees all count; PUT /invoices'
 *    payment_status moves no money and counts nothing);
 *  - an overpaid part is between 0 and the payment's amount, and only on a succeeded payment;
 *    each overpayment the invoice recorded is the one its payment recorded;
 *  - every payment names an invoice that exists.
 * An invoice or payment changed within the grace period is left for the next run (an outcome may
 * be on its way from the payment to the invoice). It cannot tell whether a provider really took the
 * money (the provider's side is not in these databases).
 */
export function checkInvoicePayments(
  ctx: CheckContext,
  invoices: readonly InvoiceDoc[],
  payments: readonly PaymentDoc[],
): CheckOutcome {
  const f = new Findings("invoice_payments", ctx);
  const paymentsOf = new Map<string, PaymentDoc[]>();
  for (const p of payments) paymentsOf.set(p.invoice_id, [...(paymentsOf.get(p.invoice_id) ?? []), p]);
  const invoiceIds = new Set(invoices.map((i) => i._id));
  for (const [invoiceId, list] of paymentsOf) {
    if (!invoiceIds.has(invoiceId))
      f.breach(
        "payment_without_invoice",
        `${list.length} payment(s) name invoice ${invoiceId}, which does not exist`,
        list.map(paymentRecord),
      );
  }
  const paymentById = new Map(payments.map((p) => [p._id, p]));

  for (const invoice of invoices) {
    const list = paymentsOf.get(invoice._id) ?? [];
    if (list.length === 0 && !(invoice.total_paid_amount_cents ?? 0) && !(invoice.overpayments ?? []).length) continue;
    if (isRecent(ctx, invoice.updated_at) || list.some((p) => isRecent(ctx, p.updated_at))) {
      f.skipped++;
      continue;
    }
    f.checked++;
    for (const p of list) {
      const overpaid = overpaidOf(p);
      if (overpaid < 0 || overpaid > p.amount_cents || (overpaid > 0 && p.payment_status !== "succeeded")) {
        f.breach(
          "invalid_overpayment",
          `payment ${p._id} records ${overpaid} overpaid of its ${p.amount_cents} (${p.payment_status})`,
          [paymentRecord(p), invoiceRecord(invoice)],
        );
      }
    }
    const succeeded = list.filter((p) => p.payment_status === "succeeded");
    const brought = sumCents(
      succeeded.map((p) => p.amount_cents),
      "succeeded payments",
    );
    const overpaid = sumCents(succeeded.map(overpaidOf), "overpaid");
    const applied = sumCents([brought, -overpaid], "applied payments");
    const offset = invoice.offset_amount_cents ?? 0;
    const payable = sumCents([invoice.amounts.total_amount_cents, -offset], "payable");
    const records = [invoiceRecord(invoice), ...list.map(paymentRecord)];
    if (applied > payable) {
      f.breach(
        "paid_beyond_total",
        `invoice ${invoice._id} (${invoice.number}) of total ${invoice.amounts.total_amount_cents}${offset ? ` (${offset} offset by credit notes)` : ""} has ${succeeded.length} succeeded payment(s) bringing ${brought}, of which ${overpaid} recorded as overpaid: ${applied - payable} unaccounted`,
        records,
        { expected: payable, actual: applied },
      );
    }
    const paid = invoice.total_paid_amount_cents ?? 0;
    if (paid !== applied) {
      f.breach(
        "paid_amount_mismatch",
        `invoice ${invoice._id} (${invoice.number}) holds total_paid_amount_cents ${paid}, its succeeded payments less their overpaid parts bring ${applied}`,
        records,
        { expected: applied, actual: paid },
      );
    }
    for (const o of invoice.overpayments ?? []) {
      const p = paymentById.get(o.payment_id);
      if (!p || overpaidOf(p) !== o.amount_cents) {
        f.breach(
          "overpayment_unrecorded",
          `invoice ${invoice._id} recorded ${o.amount_cents} overpaid by payment ${o.payment_id}, which ${p ? `records ${overpaidOf(p)}` : "does not exist"}`,
          [invoiceRecord(invoice), ...(p ? [paymentRecord(p)] : [])],
          { expected: o.amount_cents, actual: p ? overpaidOf(p) : null },
        );
      }
    }
  }
  return f.outcome();
}

export function paymentRecord(p: PaymentDoc): BreachRecord {
  return {
    type: "payment",
    id: p._id,
    fields: {
      invoice_id: p.invoice_id,
      type: p.type,
      payment_status: p.payment_status,
      amount_cents: p.amount_cents,
      overpaid_amount_cents: overpaidOf(p),
      applied: p.applied ?? null,
      provider: p.provider?.type ?? null,
      attempt: p.attempt ?? null,
      updated_at: iso(p.updated_at),
    },
  };
}
