import {
  localDateOf,
  subscriptionInvoicePeriods,
  type BillingPeriod,
  type SubscriptionInvoicePeriods,
} from "@billing/pricing";
import { billedTiming, isUpgradeTermination, timingOf } from "./billing-schedule";
import type { BillingEntry, SubscriptionCopy } from "./copies";
import type { InvoiceLine } from "./invoice";

/** A usage span never starts before the subscription did: its first period's usage counts from the start instant (as Lago). */
function fromStart(span: BillingPeriod | null, startedAt: Date): BillingPeriod | null {
  return span && span.from_datetime < startedAt && startedAt <= span.to_datetime
    ? { ...span, from_datetime: startedAt }
    : span;
}

/**
 * What one billing entry of a subscription puts on an invoice: the spans its base fee, charges and
 * fixed charges cover and the base fee, from the pricing library (billing-rules §4: the period a
 * billing date bills, proration, trials, advance or arrears, terminations and upgrades). An
 * upgraded subscription's base fee stops the day before the upgrade while its usage runs to the
 * upgrade instant; usage and arrears fixed charges count from the start instant. Pure.
 */
export function billLine(
  copy: SubscriptionCopy,
  entry: BillingEntry,
  initialStartedAt?: Date,
): { line: InvoiceLine; periods: SubscriptionInvoicePeriods } {
  const s = copy.subscription;
  const periodsOf = (timing: ReturnType<typeof timingOf>) =>
    subscriptionInvoicePeriods({
      timing,
      plan: {
        amount_cents: copy.plan.amount_cents,
        pay_in_advance: copy.plan.pay_in_advance,
        trial_period: copy.plan.trial_period,
        bill_charges_monthly: copy.plan.bill_charges_monthly,
        bill_fixed_charges_monthly: copy.plan.bill_fixed_charges_monthly,
      },
      reason: entry.reason,
      billing_date: localDateOf(entry.at, timing.timezone ?? "UTC"),
      initial_started_at: (initialStartedAt ?? new Date(s.started_at ?? s.subscription_at)).toISOString(),
    });
  const billed = periodsOf(billedTiming(copy));
  const used = isUpgradeTermination(copy) ? periodsOf(timingOf(s, copy.plan)) : billed;
  const startedAt = new Date(s.started_at ?? s.subscription_at);
  const periods: SubscriptionInvoicePeriods = {
    ...billed,
    charges: fromStart(used.charges, startedAt),
    fixed_charges: fromStart(used.fixed_charges, startedAt),
  };
  const sub = periods.subscription?.period ?? null;
  // a starting invoice of an arrears plan bills only its pay-in-advance fixed charges: Lago's in_advance_charge
  const shown =
    entry.reason === "subscription_starting" && !copy.plan.pay_in_advance ? "in_advance_charge" : entry.reason;
  return {
    line: {
      subscription_id: copy.id,
      external_subscription_id: s.external_id,
      plan_id: copy.plan.svc_id,
      plan_code: copy.plan.code,
      reason: entry.reason,
      invoicing_reason: shown,
      at: entry.at,
      subscription_from: sub?.from_datetime ?? null,
      subscription_to: sub?.to_datetime ?? null,
      charges_from: periods.charges?.from_datetime ?? null,
      charges_to: periods.charges?.to_datetime ?? null,
      fixed_from: (periods.fixed_charges_in_advance ?? periods.fixed_charges)?.from_datetime ?? null,
      fixed_to: (periods.fixed_charges_in_advance ?? periods.fixed_charges)?.to_datetime ?? null,
    },
    periods,
  };
}
