import type { CatalogMessages as M } from "@billing/contracts";
import { or } from "./presenting";
import { presentAppliedSections } from "./invoice-custom-sections";
import { presentPlan } from "./plans";
import type { subscriptionObject, subscriptionObjectExtended, ViewOf } from "./schemas";

/** Lago's SubscriptionObject (nulls where Lago sends null); `plan` and `applicable_usage_thresholds` when the reply has them. */
export function presentSubscription(s: M.Subscription__Output, options: { withPlan: boolean }) {
  const view = {
    svc_id: s.svc_id,
    external_id: s.external_id,
    svc_customer_id: s.svc_customer_id,
    external_customer_id: s.external_customer_id,
    billing_time: s.billing_time,
    name: or(s.name),
    plan_code: s.plan_code,
    status: s.status,
    created_at: s.created_at,
    canceled_at: or(s.canceled_at),
    started_at: or(s.started_at),
    ending_at: or(s.ending_at),
    subscription_at: s.subscription_at,
    terminated_at: or(s.terminated_at),
    previous_plan_code: or(s.previous_plan_code),
    next_plan_code: or(s.next_plan_code),
    downgrade_plan_date: or(s.downgrade_plan_date),
    trial_ended_at: or(s.trial_ended_at),
    current_billing_period_started_at: or(s.current_billing_period_started_at),
    current_billing_period_ending_at: or(s.current_billing_period_ending_at),
    on_termination_credit_note: or(s.on_termination_credit_note),
    on_termination_invoice: s.on_termination_invoice,
    progressive_billing_disabled: s.progressive_billing_disabled ?? false,
    plan_amount_cents: s.plan_amount_cents,
    plan_amount_currency: s.plan_amount_currency,
    applied_invoice_custom_sections: presentAppliedSections(s.applied_invoice_custom_sections),
    payment_method: {
      payment_method_type: s.payment_method?.payment_method_type ?? "provider",
      payment_method_id: or(s.payment_method?.payment_method_id),
    },
  } satisfies ViewOf<typeof subscriptionObject>;
  if (!options.withPlan || !s.plan) return view;
  return {
    ...view,
    plan: presentPlan(s.plan),
    applicable_usage_thresholds: (s.applicable_usage_thresholds ?? []).map((t) => ({
      threshold_display_name: or(t.threshold_display_name),
      amount_cents: t.amount_cents,
      recurring: t.recurring,
    })),
  } satisfies ViewOf<typeof subscriptionObjectExtended>;
}
