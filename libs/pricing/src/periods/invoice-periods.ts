import type { SubscriptionInvoicingReason } from "@billing/codes";
import {
  type BillingPeriod,
  type SubscriptionTiming,
  billingPeriodFor,
  customerDate,
  periodContaining,
  previousBillingPeriod,
} from "./billing-period";
import type { LocalDate } from "./local-date";
import { type SubscriptionFee, computeSubscriptionFee, trialEndedAt } from "./subscription-fee";
import { type Instant, localDateOf } from "./timezone";

export interface PlanTerms {
  amount_cents: number;
  pay_in_advance: boolean;
  trial_period?: number | null;
  /** Yearly and semiannual plans: usage charges billed every month. */
  bill_charges_monthly?: boolean | null;
  /** Yearly and semiannual plans: fixed charges billed every month. */
  bill_fixed_charges_monthly?: boolean | null;
}

export interface SubscriptionInvoiceInput {
  /** With terminated_at set for a termination (for an upgrade: the end of the day before it). */
  timing: SubscriptionTiming;
  plan: PlanTerms;
  reason: SubscriptionInvoicingReason;
  /**
   * The invoicing day: a local date ("2024-04-01"), or an instant read as a date in the
   * customer's zone. Ignored for a termination.
   */
  billing_date?: LocalDate | Instant;
  /** First start of any subscription with this external_id (upgrades don't restart a trial). */
  initial_started_at?: Instant;
}

export interface SubscriptionInvoicePeriods {
  /** The span the base fee covers, and the fee; null when this invoice has no base fee. */
  subscription: { period: BillingPeriod; fee: SubscriptionFee } | null;
  /** The span usage charges cover; null when this invoice bills no charges. */
  charges: BillingPeriod | null;
  /**
   * The charges span that starts, on a periodic invoice billing charges: what a recurring metric's
   * pay-in-advance units billed then pay for (Lago shows those fees over it); absent otherwise.
   */
  charges_in_advance?: BillingPeriod | null;
  /** The span fixed charges billed in arrears cover; null when this invoice bills none. */
  fixed_charges: BillingPeriod | null;
  /** The span pay-in-advance fixed charges cover (the period that starts); null when none are due. */
  fixed_charges_in_advance: BillingPeriod | null;
  /** The plan period whose minimum commitment this invoice trues up; null when none closes here. */
  commitment: BillingPeriod | null;
}

const MONTHLY_CAPABLE = new Set(["yearly", "semiannual"]);

/** The monthly grid of a yearly or semiannual plan (same billing time and anchor). */
function monthly(timing: SubscriptionTiming): SubscriptionTiming {
  return { ...timing, interval: "monthly" };
}

/**
 * The grid a subscription is invoiced on: its plan interval, or months when a yearly or
 * semiannual plan bills its charges or fixed charges monthly (an invoice every month, the base
 * fee only on the one that opens or closes a plan period).
 */
export function billingCadence(
  timing: SubscriptionTiming,
  plan: Pick<PlanTerms, "bill_charges_monthly" | "bill_fixed_charges_monthly">,
): SubscriptionTiming {
  return MONTHLY_CAPABLE.has(timing.interval) && (plan.bill_charges_monthly || plan.bill_fixed_charges_monthly)
    ? monthly(timing)
    : timing;
}

/** True when the month holding `date` opens the plan period holding it (Lago: first month of the yearly period). */
export function opensPlanPeriod(timing: SubscriptionTiming, date: LocalDate): boolean {
  if (!MONTHLY_CAPABLE.has(timing.interval)) return true;
  return periodContaining(monthly(timing), date).start === periodContaining(timing, date).start;
}

/**
 * What a subscription invoice covers (billing-rules §3–4). Arrears plans bill the base fee and
 * charges of the period that just ended (one interval back from the billing date); advance plans
 * bill the base fee of the period that starts (a starting invoice carries only that fee and the
 * in-advance fixed charges) and the charges of the one that ended. A termination bills up to the
 * termination instant; an advance plan's fee was already paid (unused days are a credit note).
 * A yearly or semiannual plan with `bill_charges_monthly` / `bill_fixed_charges_monthly` is
 * invoiced monthly: those charges cover the month that ended, while its base fee, other charges
 * and commitment appear only on the invoice in the first month of a plan period.
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
  const capable = MONTHLY_CAPABLE.has(timing.interval);
  const chargesTiming = capable && plan.bill_charges_monthly ? monthly(timing) : timing;
  const fixedTiming = capable && plan.bill_fixed_charges_monthly ? monthly(timing) : timing;

  if (reason === "subscription_terminating") {
    const day = localDateOf(timing.terminated_at ?? timing.started_at, zone);
    const period = billingPeriodFor(timing, day);
    return {
      subscription: plan.pay_in_advance ? null : fee(period),
      charges: billingPeriodFor(chargesTiming, day),
      fixed_charges: billingPeriodFor(fixedTiming, day),
      fixed_charges_in_advance: null,
      commitment: period,
    };
  }
  const day =
    input.billing_date === undefined ? localDateOf(timing.started_at, zone) : customerDate(timing, input.billing_date);
  if (reason === "subscription_starting") {
    const started = billingPeriodFor(timing, day);
    return {
      subscription: plan.pay_in_advance ? fee(started) : null,
      charges: null,
      fixed_charges: null,
      fixed_charges_in_advance: billingPeriodFor(fixedTiming, day),
      commitment: null,
    };
  }
  // Periodic. Invoiced on the plan's own grid, everything is due; invoiced monthly, the base fee, the
  // charges not billed monthly and the commitment wait for the invoice in the plan period's first month.
  const planPeriodInvoice = chargesTiming === timing && fixedTiming === timing ? true : opensPlanPeriod(timing, day);
  const ended = previousBillingPeriod(timing, day);
  const due = (grid: SubscriptionTiming) => grid !== timing || planPeriodInvoice;
  return {
    subscription: planPeriodInvoice ? fee(plan.pay_in_advance ? billingPeriodFor(timing, day) : ended) : null,
    charges: due(chargesTiming) ? previousBillingPeriod(chargesTiming, day) : null,
    charges_in_advance: due(chargesTiming) ? billingPeriodFor(chargesTiming, day) : null,
    fixed_charges: due(fixedTiming) ? previousBillingPeriod(fixedTiming, day) : null,
    fixed_charges_in_advance: due(fixedTiming) ? billingPeriodFor(fixedTiming, day) : null,
    commitment: planPeriodInvoice ? ended : null,
  };
}

/** The day an advance plan in trial is first billed: the trial end day (not the start). */
export function firstAdvanceBillingDate(
  startedAt: Instant,
  trialPeriodDays: number | null | undefined,
  timezone = "UTC",
): LocalDate {
  const trialEnd = trialEndedAt(startedAt, trialPeriodDays);
  return localDateOf(trialEnd ?? startedAt, timezone);
}
