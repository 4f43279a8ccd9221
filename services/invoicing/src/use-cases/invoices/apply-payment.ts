import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { centsDue, splitPayment, sumCents } from "@billing/pricing";
import { laterOf } from "../../domain/compose-invoice";
import type { Invoice } from "../../domain/invoice";
import { paymentStatusEvents } from "../../events/invoice-events";
import type { InvoiceDeps } from "./deps";

export type PaymentOutcome = "succeeded" | "failed" | "processing";

/** What is still to be paid on an invoice (cents): its total less what was paid and what credit notes offset. */
export const dueOf = (invoice: Pick<Invoice, "amounts" | "total_paid_amount_cents" | "offset_amount_cents">) =>
  centsDue(
    invoice.amounts.total_amount_cents,
    (invoice.total_paid_amount_cents ?? 0) + (invoice.offset_amount_cents ?? 0),
  );

/** What succeeded payments brought beyond what the invoice could take (cents). */
export const overpaidOf = (invoice: Pick<Invoice, "overpayments">) =>
  sumCents(
    (invoice.overpayments ?? []).map((o) => o.amount_cents),
    "overpaid amount",
  );

/**
 * A payment's outcome applied to its finalized invoice, once per (payment, outcome): the key is
 * written by the same conditional write as the change, so a retry, a crash or a second caller
 * finds it and changes nothing. A succeeded payment adds to what was paid (the invoice is paid
 * once nothing is due); a failed one marks the payment failed unless the invoice is paid; a
 * processing one changes nothing but is checked like the others.
 *
 * A succeeded amount above what is due is refused, unless `allow_overpayment` (a provider's
 * success: the money was taken): the invoice then takes what is due (perhaps nothing) and records
 * the rest as that payment's overpayment, in the same write, for the payment service to give back.
 */
export async function applyPayment(
  deps: Pick<InvoiceDeps, "clock" | "invoices" | "publish">,
  organizationId: string,
  request: {
    invoice_id: string;
    payment_id: string;
    amount_cents: number;
    outcome: PaymentOutcome;
    allow_overpayment?: boolean;
  },
): Promise<Invoice> {
  if (!["succeeded", "failed", "processing"].includes(request.outcome))
    throw AppError.validation({ outcome: ["value_is_invalid"] });
  if (!Number.isSafeInteger(request.amount_cents) || request.amount_cents <= 0)
    throw AppError.validation({ amount_cents: ["value_is_out_of_range"] });
  const key = `${request.payment_id}|${request.outcome}`;
  return retryOnLostRace(`payment of invoice ${request.invoice_id}`, async () => {
    const invoice = await deps.invoices.find(organizationId, request.invoice_id);
    if (!invoice) throw AppError.notFound("invoice");
    if ((invoice.applied_payments ?? []).includes(key)) return invoice;
    if (invoice.status !== "finalized") throw AppError.validation({ invoice: ["invoice_not_finalized"] });
    const succeeded = request.outcome === "succeeded";
    const { applied, overpaid } = succeeded
      ? splitPayment(request.amount_cents, dueOf(invoice))
      : { applied: 0, overpaid: 0 };
    // a manual amount must fit in what is due when it is applied
    if (overpaid > 0 && !request.allow_overpayment)
      throw AppError.validation({ amount_cents: ["greater_than_amount_due"] });
    const now = deps.clock.now();
    const paid = sumCents([invoice.total_paid_amount_cents ?? 0, applied], "paid amount");
    const status = succeeded
      ? paid + (invoice.offset_amount_cents ?? 0) >= invoice.amounts.total_amount_cents
        ? "succeeded"
        : invoice.payment_status === "failed"
          ? "pending"
          : invoice.payment_status
      : request.outcome === "failed" && invoice.payment_status !== "succeeded"
        ? "failed"
        : invoice.payment_status;
    const set: Partial<Invoice> = {
      total_paid_amount_cents: paid,
      payment_status: status,
      applied_payments: [...(invoice.applied_payments ?? []), key],
      ...(overpaid > 0 && {
        overpayments: [...(invoice.overpayments ?? []), { payment_id: request.payment_id, amount_cents: overpaid }],
      }),
      updated_at: laterOf(now, invoice.updated_at),
    };
    const changed = { ...invoice, ...set, revision: invoice.revision + 1 };
    const events = status !== invoice.payment_status ? paymentStatusEvents(changed, now) : [];
    if (!(await deps.invoices.changeFinalized(invoice, { set, events }))) return LOST_RACE;
    if (events.length) await deps.publish(invoice.id, events);
    return changed;
  });
}
