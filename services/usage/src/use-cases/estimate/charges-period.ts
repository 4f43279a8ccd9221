import { billingPeriodFor, type BillingTime, type PlanInterval } from "@billing/pricing";
import type { PlanCopy, SubscriptionCopy, SubscriptionState } from "../../domain/read-copies";

/** The last period found per subscription copy (a change of the subscription or its plan brings new objects). */
const lastPeriod = new WeakMap<SubscriptionState, { plan: PlanCopy; from: Date; to: Date }>();

/**
 * The charges period holding `at`, in the customer's time zone: the billing period, or the month
 * when a yearly or semiannual plan bills its charges monthly. Time-zone arithmetic is costly, so
 * the period is kept until `at` leaves it.
 */
export function chargesPeriod({ subscription: s, plan }: SubscriptionCopy, at: Date): { from: Date; to: Date } {
  const known = lastPeriod.get(s);
  if (known && known.plan === plan && known.from <= at && at <= known.to) return { from: known.from, to: known.to };
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
  lastPeriod.set(s, { plan, from: period.from_datetime, to: period.to_datetime });
  return { from: period.from_datetime, to: period.to_datetime };
}
