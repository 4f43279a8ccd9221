import type { SubscriptionCopy } from "../../domain/copies";
import type { Invoice } from "../../domain/invoice";
import type { FinalizeDeps } from "./deps";

/**
 * The subscriptions the invoices bill (their lines'), as invoicing's copies know them now: what
 * Lago's invoice shows as `subscriptions`. One `_id` read for all the invoices of a page.
 */
export async function invoiceSubscriptions(
  deps: Pick<FinalizeDeps, "copies">,
  invoices: readonly Invoice[],
): Promise<ReadonlyMap<string, SubscriptionCopy>> {
  const ids = [...new Set(invoices.flatMap((invoice) => invoice.lines.map((line) => line.subscription_id)))];
  return new Map((await deps.copies.subscriptionsByIds(ids)).map((copy) => [copy.id, copy]));
}
