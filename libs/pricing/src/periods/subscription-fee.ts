import { decimalString } from "../decimal";
import { fromFloat, roundFloat } from "../lago-float";
import { type LocalDate, daysBetween } from "./local-date";
import { dateDiffWithTimezone } from "./proration";
import { type Instant, instantMs, localDateOf } from "./timezone";

export interface SubscriptionFeeInput {
  plan_amount_cents: number;
  /** Billed span: start of the first billed day, end of the last one (or the termination instant). */
  from_datetime: Instant;
  to_datetime: Instant;
  /** Length of the whole period in days. */
  period_days: number;
  timezone?: string;
  /** End of the trial (initial_started_at + trial_period days), if the plan has one. */
  trial_ended_at?: Instant | null;
}

export interface SubscriptionFee {
  amount_cents: number;
  precise_amount_cents: string;
  units: "1.0";
  /** Days billed after proration and trial. */
  days: number;
  amount_details: { plan_amount_cents: number };
}

/** initial_started_at + trial_period days (upgrades keep the first start, so they don't restart a trial). */
export function trialEndedAt(initialStartedAt: Instant, trialPeriodDays: number | null | undefined): Date | null {
  if (!trialPeriodDays) return null;
  return new Date(instantMs(initialStartedAt) + trialPeriodDays * 86_400_000);
}

/**
 * The base (subscription) fee of a billed span: the full amount for a whole period, else
 * round(days × plan_amount / period_days). Days are whole days in the customer's time zone.
 * A trial covering the span gives 0; a trial ending inside it bills from the trial end.
 * Lago quirk: the single-day price is a Float division.
 */
export function computeSubscriptionFee(input: SubscriptionFeeInput): SubscriptionFee {
  const zone = input.timezone ?? "UTC";
  let from = instantMs(input.from_datetime);
  const to = instantMs(input.to_datetime);
  if (input.trial_ended_at != null) from = Math.max(from, instantMs(input.trial_ended_at));
  const days = from > to ? 0 : Math.min(input.period_days, dateDiffWithTimezone(from, to, zone));
  const singleDayPrice = input.plan_amount_cents / input.period_days;
  const precise = days >= input.period_days ? input.plan_amount_cents : days * singleDayPrice;
  return {
    amount_cents: roundFloat(precise).toNumber(),
    precise_amount_cents: decimalString(fromFloat(precise)),
    units: "1.0",
    days,
    amount_details: { plan_amount_cents: input.plan_amount_cents },
  };
}

/** Unused days of an advance-paid period after a termination or upgrade: period end − termination date. */
export function unusedDays(terminatedAt: Instant, periodToDate: LocalDate, timezone = "UTC"): number {
  return Math.max(0, daysBetween(localDateOf(terminatedAt, timezone), periodToDate));
}
