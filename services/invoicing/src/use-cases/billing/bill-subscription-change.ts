import { localDateOf, subscriptionInvoicePeriods } from "@billing/pricing";
import { timingOf } from "../../domain/billing-schedule";
import type { SubscriptionCopy } from "../../domain/copies";
import type { InvoicingDeps } from "../deps";
import { issueInvoice } from "./issue-invoice";

/**
 * The invoices a subscription's change produces within seconds of it (driven by the catalog's
 * events): a pay-in-advance plan's starting invoice (its first period's base fee, none while a
 * trial runs), and the termination invoice (the last period's usage and, in arrears, its prorated
 * base fee) unless `on_termination_invoice` is skip. Keyed like every invoice: redelivery-safe.
 */
export async function billSubscriptionChange(deps: InvoicingDeps, copy: SubscriptionCopy, change: "started" | "terminated"): Promise<void> {
  const s = copy.subscription;
  const starting = change === "started" && copy.plan.pay_in_advance && !!s.started_at && !((copy.plan.trial_period ?? 0) > 0);
  const terminating = change === "terminated" && !!s.terminated_at && s.on_termination_invoice !== "skip";
  if (!starting && !terminating) return; // nothing to invoice for this change
  const customer = await deps.copies.customer(s.svc_customer_id);
  if (!customer) throw new Error(`customer ${s.svc_customer_id} not known yet`); // redelivered later
  const plan = { amount_cents: copy.plan.amount_cents, pay_in_advance: copy.plan.pay_in_advance, trial_period: copy.plan.trial_period };
  if (change === "started") {
    const periods = subscriptionInvoicePeriods({
      timing: timingOf(s, copy.plan), plan, reason: "subscription_starting", billing_date: localDateOf(s.started_at!, s.timezone),
    });
    if (!periods.subscription) return;
    await issueInvoice(deps, {
      organizationId: copy.organization_id, customer, billedAt: new Date(s.started_at!), reason: "subscription_starting",
      lines: [{ copy, reason: "subscription_starting", periods }], sandbox: copy.sandbox,
    });
    return;
  }
  const periods = subscriptionInvoicePeriods({ timing: timingOf(s, copy.plan), plan, reason: "subscription_terminating" });
  await issueInvoice(deps, {
    organizationId: copy.organization_id, customer, billedAt: new Date(s.terminated_at!), reason: "subscription_terminating",
    lines: [{ copy, reason: "subscription_terminating", periods }], sandbox: copy.sandbox,
  });
}
