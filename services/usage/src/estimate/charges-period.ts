import { billingPeriodFor, type BillingTime, type PlanInterval } from "@billing/pricing";
import type { SubscriptionCopy } from "../domain/read-copies";

/**
 * The charges period holding `at`, in the customer's time zone: the billing period, or the month
 * when a yearly or semiannual plan bills its charges monthly.
 */
export function chargesPeriod({ subscription: s, plan }: SubscriptionCopy, at: Date): { from: Date; to: Date } {
  const monthly = plan.bill_charges_monthly === true && (plan.interval === "yearly" || plan.interval === "semiannual");
  const period = billingPeriodFor(
    {
      interval: (monthly ? "monthly" : plan.interval) as PlanInterval,
      billing_time: s.billing_time as BillingTime,
      subscription_at: s.subscription_at,
      started_at: s.started_at ?? s.subscription_at,
      terminated_at: s.terminated_at,
      timezone: s.timezone,
    },
    at,
  );
  return { from: period.from_datetime, to: period.to_datetime };
}
