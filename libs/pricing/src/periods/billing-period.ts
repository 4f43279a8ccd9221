import { type LocalDate, addDays, inclusiveDays, isoWeekday, maxDate, minDate, monthDay, parts } from "./local-date";
import { type Instant, endOfLocalDay, instantMs, localDateOf, startOfLocalDay } from "./timezone";

export type PlanInterval = "weekly" | "monthly" | "quarterly" | "semiannual" | "yearly";
export type BillingTime = "calendar" | "anniversary";

/** The subscription fields that decide its billing periods. */
export interface SubscriptionTiming {
  interval: PlanInterval;
  billing_time: BillingTime;
  /** Anniversary anchor (subscription_at). */
  subscription_at: Instant;
  started_at: Instant;
  terminated_at?: Instant | null;
  /** Customer time zone (customer → billing entity → UTC). */
  timezone?: string | null;
}

export interface BillingPeriod {
  /** First and last local day billed (clamped to the subscription's start and termination). */
  from_date: LocalDate;
  to_date: LocalDate;
  /** The whole period the billed days belong to. */
  period_from_date: LocalDate;
  period_to_date: LocalDate;
  /** Length of the whole period in days (the proration divisor: 28–31, 7, 90–92, 365/366). */
  period_days: number;
  /** Billed days, both ends included. */
  billed_days: number;
  /** UTC instants: start of from_date, end (23:59:59.999) of to_date or the termination instant. */
  from_datetime: Date;
  to_datetime: Date;
}

const MONTHS: Record<Exclude<PlanInterval, "weekly">, number> = { monthly: 1, quarterly: 3, semiannual: 6, yearly: 12 };

/** The full period (unclamped) holding `date`. */
export function periodContaining(timing: SubscriptionTiming, date: LocalDate): { start: LocalDate; end: LocalDate } {
  const zone = timing.timezone ?? "UTC";
  const anchor = localDateOf(timing.subscription_at, zone);
  if (timing.interval === "weekly") {
    const startDay = timing.billing_time === "calendar" ? 1 : isoWeekday(anchor);
    const start = addDays(date, -((isoWeekday(date) - startDay + 7) % 7));
    return { start, end: addDays(start, 6) };
  }
  const step = MONTHS[timing.interval];
  const d = parts(date);
  if (timing.billing_time === "calendar") {
    const firstMonth = d.month - ((d.month - 1) % step);
    const start = monthDay(d.year, firstMonth, 0, 1);
    return { start, end: addDays(monthDay(d.year, firstMonth, step, 1), -1) };
  }
  const a = parts(anchor);
  // Anniversary: period starts on the anchor day every `step` months, clamped to short months without drifting.
  let n = Math.floor((d.year * 12 + d.month - (a.year * 12 + a.month)) / step);
  let start = monthDay(a.year, a.month, n * step, a.day);
  if (start > date) start = monthDay(a.year, a.month, --n * step, a.day);
  let next = monthDay(a.year, a.month, (n + 1) * step, a.day);
  if (next <= date) (start = next), (next = monthDay(a.year, a.month, (n + 2) * step, a.day));
  return { start, end: addDays(next, -1) };
}

/** The billing period holding `at`, clamped to the subscription's start and termination. */
export function billingPeriodFor(timing: SubscriptionTiming, at: Instant | LocalDate): BillingPeriod {
  const zone = timing.timezone ?? "UTC";
  const date = typeof at === "string" && /^\d{4}-\d{2}-\d{2}$/.test(at) ? at : localDateOf(at, zone);
  const full = periodContaining(timing, date);
  const from = maxDate(full.start, localDateOf(timing.started_at, zone));
  let to = full.end;
  let toDatetime = endOfLocalDay(to, zone);
  if (timing.terminated_at != null && instantMs(timing.terminated_at) <= toDatetime.getTime()) {
    toDatetime = new Date(instantMs(timing.terminated_at));
    to = minDate(to, localDateOf(timing.terminated_at, zone));
  }
  return {
    from_date: from,
    to_date: to,
    period_from_date: full.start,
    period_to_date: full.end,
    period_days: inclusiveDays(full.start, full.end),
    billed_days: Math.max(0, inclusiveDays(from, to)),
    from_datetime: startOfLocalDay(from, zone),
    to_datetime: toDatetime,
  };
}

/** The billing date stepped back one interval (a month back from Mar 31 is Feb 29 or 28: clamped, as Lago). */
export function oneIntervalBack(interval: PlanInterval, date: LocalDate): LocalDate {
  if (interval === "weekly") return addDays(date, -7);
  const d = parts(date);
  return monthDay(d.year, d.month, -MONTHS[interval], d.day);
}

/**
 * The period an invoice issued on `billingDate` bills in arrears (billing-rules §4): step one
 * interval back from the billing date (in the customer's zone) and bill the period holding that
 * date. At a period start this is the period that ended the day before; off a boundary (an
 * invoice triggered mid-period) it is the previous whole period, not the current one.
 */
export function previousBillingPeriod(timing: SubscriptionTiming, billingDate: LocalDate): BillingPeriod {
  return billingPeriodFor(timing, oneIntervalBack(timing.interval, billingDate));
}

/** The next billing day: the first day after the period holding `date`. */
export function nextBillingDate(timing: SubscriptionTiming, date: LocalDate): LocalDate {
  return addDays(periodContaining(timing, date).end, 1);
}

/**
 * Immediate plan change at `at`: the old subscription is billed up to the end of the day before,
 * the new one from the start of that day (it keeps the old anniversary).
 */
export function planChangeBoundaries(at: Instant, timezone = "UTC"): { old_to_datetime: Date; new_from_datetime: Date } {
  const day = localDateOf(at, timezone);
  return { old_to_datetime: endOfLocalDay(addDays(day, -1), timezone), new_from_datetime: startOfLocalDay(day, timezone) };
}

const PER_YEAR: Record<PlanInterval, number> = { weekly: 52, monthly: 12, quarterly: 4, semiannual: 2, yearly: 1 };

/** Upgrade (applied now) when the new plan's yearly-equivalent amount is ≥ the old one; else a downgrade at period end. */
export function isUpgrade(oldPlan: { interval: PlanInterval; amount_cents: number }, newPlan: { interval: PlanInterval; amount_cents: number }): boolean {
  return newPlan.amount_cents * PER_YEAR[newPlan.interval] >= oldPlan.amount_cents * PER_YEAR[oldPlan.interval];
}
