import { appliedSectionViews } from "@billing/contracts";
import { currentBillingPeriod as sharedCurrentBillingPeriod, trialEndedAt, type PlanInterval } from "@billing/pricing";
import { invoiceCustomSectionView, type InvoiceCustomSection } from "./invoice-custom-section";
import type { Subscription } from "./subscription";
import type { PlanView } from "./views";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What the view needs of the subscription's plan. */
export type PlanOfView = Pick<
  PlanView,
  "interval" | "amount_cents" | "amount_currency" | "trial_period" | "usage_thresholds"
>;

/** The current billing period at `now`, in the customer's zone (the pricing library's rule, shared with invoices' subscriptions). */
export function currentBillingPeriod(
  s: Subscription,
  plan: Pick<PlanView, "interval">,
  now: Date,
): { from: Date; to: Date } | null {
  return sharedCurrentBillingPeriod({ ...s, interval: plan.interval as PlanInterval }, now);
}

/** The trial's end once it has passed (trials count from the first start of the external id). */
export function trialEnd(s: Subscription, plan: Pick<PlanView, "trial_period">, now: Date): Date | null {
  const end = s.initial_started_at ? trialEndedAt(s.initial_started_at, plan.trial_period) : null;
  return end && end.getTime() <= now.getTime() ? end : null;
}

/**
 * The public view of a subscription (list items; create and retrieve add `plan` and
 * `applicable_usage_thresholds`). `sections`: the live sections it may have chosen, by id (a
 * chosen section since deleted is not shown).
 */
export function subscriptionView(
  s: Subscription,
  plan: PlanOfView,
  now: Date,
  sections: ReadonlyMap<string, InvoiceCustomSection> = new Map(),
) {
  const period = currentBillingPeriod(s, plan, now);
  return {
    svc_id: s.id,
    external_id: s.external_id,
    svc_customer_id: s.customer_id,
    external_customer_id: s.external_customer_id,
    billing_time: s.billing_time,
    name: s.name,
    plan_code: s.plan_code,
    status: s.status,
    created_at: s.created_at.toISOString(),
    canceled_at: iso(s.canceled_at),
    started_at: iso(s.started_at),
    ending_at: iso(s.ending_at),
    subscription_at: s.subscription_at.toISOString(),
    terminated_at: iso(s.terminated_at),
    trial_ended_at: iso(trialEnd(s, plan, now)),
    previous_plan_code: s.previous_plan_code,
    next_plan_code: s.next_plan_code,
    downgrade_plan_date: s.downgrade_plan_date,
    current_billing_period_started_at: iso(period?.from ?? null),
    current_billing_period_ending_at: iso(period?.to ?? null),
    on_termination_credit_note: s.on_termination_credit_note,
    on_termination_invoice: s.on_termination_invoice,
    progressive_billing_disabled: s.progressive_billing_disabled ?? false,
    plan_amount_cents: plan.amount_cents,
    plan_amount_currency: plan.amount_currency,
    skip_invoice_custom_sections: s.skip_invoice_custom_sections ?? false,
    applied_invoice_custom_sections: appliedSectionViews(s.invoice_custom_sections, (id) => {
      const section = sections.get(id);
      return section && invoiceCustomSectionView(section);
    }),
    payment_method: { payment_method_type: "provider", payment_method_id: null as string | null },
  };
}
export type SubscriptionView = ReturnType<typeof subscriptionView>;

/** The thresholds that apply to the subscription (its plan's). */
export function applicableUsageThresholds(plan: PlanOfView) {
  return plan.usage_thresholds.map((t) => ({
    threshold_display_name: t.threshold_display_name,
    amount_cents: t.amount_cents,
    recurring: t.recurring,
  }));
}
