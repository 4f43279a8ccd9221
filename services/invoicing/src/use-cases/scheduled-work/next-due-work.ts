import { dayOf, overdueFrom } from "../../domain/payment-overdue";
import type { BillingDeps } from "../billing/deps";

/**
 * When the organization's next invoicing work is due after `after`: a billing, the end of a grace
 * period, or an unpaid invoice becoming overdue (the start of the day after its due date).
 */
export async function nextDueWork(
  deps: Pick<BillingDeps, "copies" | "invoices">,
  organizationId: string,
  after: Date,
): Promise<Date | null> {
  const [billing, finalization, dueDate] = await Promise.all([
    deps.copies.nextBillingAfter(organizationId, after),
    deps.invoices.nextFinalizationAfter(organizationId, after),
    // due on `after`'s day or later: overdue from the next day's start, after `after`
    deps.invoices.nextOverdueDueDate(organizationId, dayOf(after)),
  ]);
  const overdue = dueDate ? overdueFrom(dueDate) : null;
  const times = [billing, finalization, overdue].filter((d): d is Date => d !== null).map((d) => d.getTime());
  return times.length ? new Date(Math.min(...times)) : null;
}
