import type { PlanViewData, SubscriptionViewData } from "@billing/contracts";
import {
  billingCadence,
  billingPeriodFor,
  localDateOf,
  planChangeBoundaries,
  trialEndedAt,
  type BillingTime,
  type PlanInterval,
  type SubscriptionTiming,
} from "@billing/pricing";
import type { BillingEntry, SubscriptionCopy } from "./copies";

type Billed = Pick<SubscriptionCopy, "subscription" | "plan">;

/** The subscription's billing timing as the pricing library reads it, in the customer's zone. */
export function timingOf(s: SubscriptionViewData, plan: Pick<PlanViewData, "interval">): SubscriptionTiming {
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
 * The instant the invoicing period holding `at` ends: the next period's first instant in the
 * customer's zone (months for a yearly plan that bills its charges monthly).
 */
export function boundaryAfter(copy: Billed, at: Date): Date {
  const timing = billingCadence({ ...timingOf(copy.subscription, copy.plan), terminated_at: null }, copy.plan);
  return new Date(billingPeriodFor(timing, localDateOf(at, timing.timezone ?? "UTC")).to_datetime.getTime() + 1);
}

/** A plan billed when it starts: in advance, or with fixed charges paid in advance. */
const billsAtStart = (copy: Billed) =>
  copy.plan.pay_in_advance || copy.plan.fixed_charges.some((fc) => fc.pay_in_advance);

/** When an advance plan is first billed: at its start, or at the end of its trial (billing-rules §4). */
function startingAt(copy: Billed, initialStartedAt: Date): Date {
  const started = new Date(copy.subscription.started_at!);
  const trialEnd = trialEndedAt(initialStartedAt, copy.plan.trial_period);
  return trialEnd && trialEnd > started ? trialEnd : started;
}

/**
 * The subscription's next billing after `last` (null: nothing billed yet), from what its copy says
 * now. An advance plan (or one with fixed charges paid in advance) starts with a starting invoice
 * (at its trial's end when it has one), an arrears plan with its first boundary; then one periodic invoice per boundary. A termination
 * before the next boundary replaces it by the termination invoice (none when
 * `on_termination_invoice` is skip); one at or after it waits until the boundaries before it are
 * billed. Null once there is nothing more to bill.
 */
export function nextBilling(copy: Billed, last: BillingEntry | null, initialStartedAt?: Date): BillingEntry | null {
  const s = copy.subscription;
  if (!s.started_at || (s.status !== "active" && s.status !== "terminated")) return null;
  if (last?.reason === "subscription_terminating") return null;
  const terminatedAt = s.status === "terminated" && s.terminated_at ? new Date(s.terminated_at) : null;
  const candidate: BillingEntry = last
    ? { at: boundaryAfter(copy, last.at), reason: "subscription_periodic" }
    : billsAtStart(copy)
      ? { at: startingAt(copy, initialStartedAt ?? new Date(s.started_at)), reason: "subscription_starting" }
      : { at: boundaryAfter(copy, new Date(s.started_at)), reason: "subscription_periodic" };
  if (!terminatedAt || terminatedAt >= candidate.at) return candidate;
  // billed past its termination already (its event came late): nothing more
  if (last && terminatedAt < last.at) return null;
  return s.on_termination_invoice === "skip" ? null : { at: terminatedAt, reason: "subscription_terminating" };
}

/**
 * True when a termination ends the subscription for an upgrade: the catalog names its successor
 * (next_plan_code) and the termination is not at the end of a period (a downgrade takes effect at
 * the period's end, an upgrade at once).
 */
export function isUpgradeTermination(copy: Billed): boolean {
  const s = copy.subscription;
  if (s.status !== "terminated" || !s.terminated_at || !s.next_plan_code) return false;
  const at = new Date(s.terminated_at);
  return boundaryAfter(copy, at).getTime() !== at.getTime() + 1;
}

/**
 * The timing a line bills with: a subscription ended by an upgrade is billed up to the end of the
 * day before the upgrade (the new plan is billed from that day, billing-rules §4).
 */
export function billedTiming(copy: Billed): SubscriptionTiming {
  const timing = timingOf(copy.subscription, copy.plan);
  if (!isUpgradeTermination(copy)) return timing;
  return {
    ...timing,
    terminated_at: planChangeBoundaries(copy.subscription.terminated_at!, timing.timezone ?? "UTC").old_to_datetime,
  };
}
