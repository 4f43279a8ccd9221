import { type BillingPeriod, type SubscriptionTiming, billingPeriodFor, previousBillingPeriod } from "./billing-period";
import type { LocalDate } from "./local-date";
import { type SubscriptionFee, computeSubscriptionFee, trialEndedAt } from "./subscription-fee";
import { type Instant, localDateOf } from "./timezone";

export interface PlanTerms {
  amount_cents: number;
  pay_in_advance: boolean;
  trial_period?: number | null;
}

export type InvoicingReason = "subscription_starting" | "subscription_periodic" | "subscription_terminating";

export interface SubscriptionInvoiceInput {
  /** With terminated_at set for a termination (for an upgrade: the end of the day before it). */
  timing: SubscriptionTiming;
  plan: PlanTerms;
  reason: InvoicingReason;
  /** The invoicing day (customer zone); ignored for a termination. */
  billing_date?: LocalDate;
  /** First start of any subscription with this external_id (upgrades don't restart a trial). */
  initial_started_at?: Instant;
}

export interface SubscriptionInvoicePeriods {
  /** The span the base fee covers, and the fee; null when this invoice has no base fee. */
  subscription: { period: BillingPeriod; fee: SubscriptionFee } | null;
  /** The span usage charges cover; null when this invoice bills no charges. */
  charges: BillingPeriod | null;
}

/**
 * What a subscription invoice covers. Arrears plans bill the base fee and charges of the period
 * that just ended; advance plans bill the base fee of the period that starts (a starting invoice
 * carries only that fee) and the charges of the one that ended. A termination bills up to the
 * termination instant; an advance plan's fee was already paid (unused days are a credit note).
 */
export function subscriptionInvoicePeriods(input: SubscriptionInvoiceInput): SubscriptionInvoicePeriods {
  const { timing, plan, reason } = input;
  const zone = timing.timezone ?? "UTC";
  const trialEnd = trialEndedAt(input.initial_started_at ?? timing.started_at, plan.trial_period);
  const fee = (period: BillingPeriod) => ({
    period,
    fee: computeSubscriptionFee({
      plan_amount_cents: plan.amount_cents,
      from_datetime: period.from_datetime,
      to_datetime: period.to_datetime,
      period_days: period.period_days,
      timezone: zone,
      trial_ended_at: trialEnd,
    }),
  });
  if (reason === "subscription_terminating") {
    const period = billingPeriodFor(timing, localDateOf(timing.terminated_at ?? timing.started_at, zone));
    return { subscription: plan.pay_in_advance ? null : fee(period), charges: period };
  }
  const day = input.billing_date ?? localDateOf(timing.started_at, zone);
  if (reason === "subscription_starting") {
    return { subscription: plan.pay_in_advance ? fee(billingPeriodFor(timing, day)) : null, charges: null };
  }
  const ended = previousBillingPeriod(timing, day);
  const started = billingPeriodFor(timing, day);
  return { subscription: fee(plan.pay_in_advance ? started : ended), charges: ended };
}

/** The day an advance plan in trial is first billed: the trial end day (not the start). */
export function firstAdvanceBillingDate(startedAt: Instant, trialPeriodDays: number | null | undefined, timezone = "UTC"): LocalDate {
  const trialEnd = trialEndedAt(startedAt, trialPeriodDays);
  return localDateOf(trialEnd ?? startedAt, timezone);
}
