import { refreshedDraft } from "../../domain/compose-invoice";
import type { SubscriptionCopy } from "../../domain/copies";
import type { Invoice } from "../../domain/invoice";
import { priceLines } from "../billing/price-lines";
import type { FinalizeDeps } from "./deps";

/**
 * A draft's fees and amounts from the usage stored now (late events count; consistent with every
 * acknowledged event): the same lines priced again. Nothing is written here.
 */
export async function refreshDraft(
  deps: Pick<FinalizeDeps, "billingEntities" | "clock" | "copies" | "invoices" | "usage">,
  invoice: Invoice,
): Promise<ReturnType<typeof refreshedDraft>> {
  const copies = await Promise.all(invoice.lines.map((line) => deps.copies.subscription(line.subscription_id)));
  const requests = invoice.lines.flatMap((line, i) => {
    const copy = copies[i];
    return copy ? [{ copy: copy as SubscriptionCopy, entry: { at: line.at, reason: line.reason } }] : [];
  });
  const lines = await priceLines(deps, requests);
  const customer = (await deps.copies.customer(invoice.customer_id))?.customer ?? invoice.customer;
  const entity = invoice.billing_entity_code
    ? await deps.billingEntities.get(invoice.organization_id, invoice.billing_entity_code)
    : null;
  return refreshedDraft(invoice, lines, entity, customer, deps.clock.now());
}
