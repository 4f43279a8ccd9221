import { UNPAID_STATUSES, type Invoice } from "./invoice";

/** The day (UTC, as `YYYY-MM-DD`) of an instant on the organization's clock: what `payment_due_date` is compared with. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Lago's `payment_overdue`: a finalized invoice not paid whose `payment_due_date` is before the
 * organization's today. A draft, a closed invoice, a paid one is never overdue.
 */
export function isPaymentOverdue(
  invoice: Pick<Invoice, "status" | "payment_status" | "payment_due_date">,
  now: Date,
): boolean {
  return (
    invoice.status === "finalized" &&
    UNPAID_STATUSES.includes(invoice.payment_status) &&
    invoice.payment_due_date < dayOf(now)
  );
}

/** The instant an unpaid invoice due on `paymentDueDate` becomes overdue: the start of the following day. */
export function overdueFrom(paymentDueDate: string): Date {
  const due = new Date(`${paymentDueDate}T00:00:00.000Z`);
  return new Date(due.getTime() + 86_400_000);
}
