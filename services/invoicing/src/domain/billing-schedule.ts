import { billingPeriodFor, localDateOf, type BillingTime, type PlanInterval, type SubscriptionTiming } from "@billing/pricing";
import type { SubscriptionViewData, PlanViewData } from "@billing/contracts";

/** The subscription's billing timing as the pricing library reads it, in the customer's zone. */
export function timingOf(s: SubscriptionViewData, plan: PlanViewData): SubscriptionTiming {
  return {
    interval: plan.interval as PlanInterval,
    billing_time: s.billing_time as BillingTime,
    subscription_at: s.subscription_at,
    started_at: s.started_at ?? s.subscription_at,
    terminated_at: s.terminated_at,
    timezone: s.timezone,
  };
}

/**
 * The billing instant that ends the period holding `at`: the next period's first instant in the
 * customer's zone (a periodic invoice is due then). Null for a subscription that is not active.
 */
export function billingBoundaryAfter(s: SubscriptionViewData, plan: PlanViewData, at: Date): Date | null {
  if (s.status !== "active" || !s.started_at) return null;
  const period = billingPeriodFor(timingOf(s, plan), localDateOf(at, s.timezone));
  return new Date(period.to_datetime.getTime() + 1);
}
