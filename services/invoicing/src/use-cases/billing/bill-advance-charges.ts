import { advanceChargesInvoice, advanceChargesInvoiceIdOf, regroupsPaidFees } from "../../domain/advance-charges";
import type { CustomerCopy, SubscriptionCopy } from "../../domain/copies";
import type { Invoice } from "../../domain/invoice";
import type { PricedLine } from "../../domain/invoice-fees";
import { invoicingTerms } from "../../domain/invoicing-terms";
import { storedEvents } from "../../events/invoice-events";
import type { BillingDeps } from "./deps";

export interface AdvanceChargesGroup {
  organizationId: string;
  customerId: string;
  at: Date;
  copies: readonly SubscriptionCopy[];
}

/**
 * A billing run's advance_charges invoice for one customer and instant (domain/advance-charges.ts):
 * the paid, waiting pay-in-advance fees of the group's subscriptions whose plan regroups paid fees,
 * paid by the billing instant (and, on a plain periodic run, whose charges period ended by then),
 * on one invoice stored under a derived id; then those fees are marked as on it. A retry finds the
 * invoice and only marks its fees again (idempotent). Returns the invoice when it is still to
 * finalize (`generating`), else null (none due, or finalized already).
 */
export async function billAdvanceCharges(
  deps: Pick<BillingDeps, "billingEntities" | "clock" | "invoices" | "publish" | "waitingFees">,
  group: AdvanceChargesGroup,
  customer: CustomerCopy,
  priced: ReadonlyMap<string, PricedLine>,
): Promise<Invoice | null> {
  const regrouping = group.copies.filter((c) => regroupsPaidFees(c.plan));
  if (regrouping.length === 0) return null;
  const id = advanceChargesInvoiceIdOf(group.organizationId, group.customerId, group.at);
  let stored = await deps.invoices.findById(id);
  if (!stored) {
    // Lago bounds by the charges period only on a plain periodic run (no upgrade, termination or start)
    const periodic = group.copies.every((c) => c.next_billing_reason === "subscription_periodic");
    const fees = await deps.waitingFees.paid(
      group.organizationId,
      regrouping.map((c) => c.subscription.svc_id),
      group.at,
      periodic ? group.at : null,
    );
    if (fees.length === 0) return null;
    const c = customer.customer;
    const entity = c.billing_entity_code
      ? await deps.billingEntities.get(group.organizationId, c.billing_entity_code)
      : null;
    const withFees = regrouping.filter((copy) => fees.some((f) => f.subscription_id === copy.subscription.svc_id));
    const now = deps.clock.now();
    const invoice = advanceChargesInvoice({
      organizationId: group.organizationId,
      customer,
      entity,
      terms: invoicingTerms(c, entity),
      sandbox: withFees[0]!.sandbox,
      billedAt: group.at,
      currency: withFees[0]!.plan.amount_currency ?? c.currency ?? "USD",
      fees,
      subscriptions: withFees.map((copy) => {
        const line = priced.get(copy.id)?.line;
        return {
          subscription_id: copy.subscription.svc_id,
          external_subscription_id: copy.subscription.external_id,
          plan_id: copy.plan.svc_id,
          plan_code: copy.plan.code,
          from: line?.charges_from ?? null,
          to: line?.charges_to ?? null,
        };
      }),
      now,
    });
    const events = storedEvents(invoice, now);
    if (await deps.invoices.insert(invoice, events)) {
      await deps.publish(invoice.id, events);
      stored = invoice;
    } else {
      stored = await deps.invoices.findById(id); // another replica stored it first
    }
  }
  if (!stored) throw new Error(`advance_charges invoice ${id} vanished`);
  await deps.waitingFees.attach(
    stored.fees.map((f) => f.id),
    stored.id,
  );
  return stored.status === "generating" ? stored : null;
}
