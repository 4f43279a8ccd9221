import { localDateOf, subscriptionInvoicePeriods } from "@billing/pricing";
import { billingBoundaryAfter, timingOf } from "../../domain/billing-schedule";
import type { SubscriptionCopy } from "../../domain/copies";
import type { DueScope } from "../../persistence/copy-repository";
import type { InvoicingDeps } from "../deps";
import { issueInvoice } from "./issue-invoice";

/** Invoices priced and stored at once in a pass. */
const CONCURRENCY = 8;

/** The periodic invoice lines of subscriptions billed at `at`. */
export function periodicLine(copy: SubscriptionCopy, at: Date) {
  const s = copy.subscription;
  const periods = subscriptionInvoicePeriods({
    timing: timingOf(s, copy.plan),
    plan: { amount_cents: copy.plan.amount_cents, pay_in_advance: copy.plan.pay_in_advance, trial_period: copy.plan.trial_period },
    reason: "subscription_periodic",
    billing_date: localDateOf(at, s.timezone),
  });
  return { copy, reason: "subscription_periodic" as const, periods };
}

/**
 * One pass of billing: every subscription whose billing instant has come, in scope, is invoiced,
 * one invoice per customer and instant covering all of that customer's subscriptions billed then;
 * each subscription's next billing instant then moves forward, conditionally on the one it was
 * billed at (a second replica, or a retry, changes nothing). Returns how many subscriptions were billed.
 */
export async function billDueSubscriptions(deps: InvoicingDeps, scope: DueScope = {}, batch = 500): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.copies.dueSubscriptions(now, batch, scope);
  const groups = new Map<string, SubscriptionCopy[]>();
  for (const copy of due) {
    const key = `${copy.organization_id}|${copy.subscription.svc_customer_id}|${copy.next_billing_at!.toISOString()}|${copy.plan.amount_currency}`;
    groups.set(key, [...(groups.get(key) ?? []), copy]);
  }
  let billed = 0;
  const bill = async (copies: SubscriptionCopy[]) => {
    const first = copies[0]!;
    const at = first.next_billing_at!;
    const customer = await deps.copies.customer(first.subscription.svc_customer_id);
    if (!customer) {
      deps.logger.warn({ customer_id: first.subscription.svc_customer_id }, "customer copy not known yet; billing waits");
      return;
    }
    try {
      await issueInvoice(deps, {
        organizationId: first.organization_id, customer, billedAt: at, reason: "subscription_periodic",
        lines: copies.map((c) => periodicLine(c, at)), sandbox: first.sandbox,
      });
    } catch (err) {
      deps.logger.error({ err, organization_id: first.organization_id, customer_id: customer.id, at }, "billing failed; will retry");
      return;
    }
    for (const copy of copies) {
      await deps.copies.moveNextBilling(copy.id, at, billingBoundaryAfter(copy.subscription, copy.plan, at));
      billed++;
    }
  };
  // customers are independent: several invoices are priced and stored at once (I/O bound: the
  // usage service's reads and this service's writes overlap)
  const queue = [...groups.values()];
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await bill(next);
  }));
  return billed;
}
