import type { PlanInterval } from "@billing/codes";
import {
  type LocalDate,
  addDays,
  daysInMonth,
  inclusiveDays,
  isoWeekday,
  maxDate,
  minDate,
  monthDay,
  parts,
} from "./local-date";
import { type Instant, endOfLocalDay, instantMs, localDateOf, startOfLocalDay } from "./timezone";

export type { PlanInterval } from "@billing/codes";
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
  if (next <= date) ((start = next), (next = monthDay(a.year, a.month, (n + 2) * step, a.day)));
  return { start, end: addDays(next, -1) };
}

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A local date ("2024-03-01") as is; an instant as its date in the customer's zone. */
export function customerDate(timing: Pick<SubscriptionTiming, "timezone">, at: Instant | LocalDate): LocalDate {
  return typeof at === "string" && LOCAL_DATE.test(at) ? at : localDateOf(at, timing.timezone ?? "UTC");
}

/** The billing period holding `at`, clamped to the subscription's start and termination. */
export function billingPeriodFor(timing: SubscriptionTiming, at: Instant | LocalDate): BillingPeriod {
  const zone = timing.timezone ?? "UTC";
  const date = customerDate(timing, at);
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

/**
 * The date one interval (1 week, 1, 3, 6 or 12 months) before `date`, the day of month clamped
 * to a shorter month (a month back from Mar 31 is Feb 29 or 28, as Lago). With `anniversaryDay`
 * (29–31), a date on its month's last day stands for that anniversary day, so a clamped
 * boundary steps back to the previous boundary (Feb 29 → Jan 31 for a subscription on the 31st).
 */
export function oneIntervalBack(interval: PlanInterval, date: LocalDate, anniversaryDay?: number): LocalDate {
  if (interval === "weekly") return addDays(date, -7);
  const d = parts(date);
  const monthEnd = d.day === daysInMonth(d.year, d.month);
  const day = monthEnd && anniversaryDay !== undefined && anniversaryDay > d.day ? anniversaryDay : d.day;
  return monthDay(d.year, d.month, -MONTHS[interval], day);
}

/**
 * The period an invoice issued at `billingAt` bills in arrears (billing-rules §4): the billing
 * date in the customer's zone (an instant at 00:00Z is still the previous day in New York),
 * stepped back one interval, and the period holding that date. At a period start this is the
 * period that ended the day before; off a boundary (an invoice triggered mid-period) it is the
 * previous whole period, not the current one. On an anniversary on the 29th–31st, where a
 * clamped step could land in the current period or two back, it is the period right before the
 * one holding the billing date (month ends don't drift the grid).
 */
export function previousBillingPeriod(timing: SubscriptionTiming, billingAt: Instant | LocalDate): BillingPeriod {
  const date = customerDate(timing, billingAt);
  const anniversaryDay =
    timing.billing_time === "anniversary"
      ? parts(localDateOf(timing.subscription_at, timing.timezone ?? "UTC")).day
      : undefined;
  let stepped = oneIntervalBack(timing.interval, date, anniversaryDay);
  const current = periodContaining(timing, date).start;
  const held = periodContaining(timing, stepped);
  if (held.start >= current || held.end < addDays(current, -1)) stepped = addDays(current, -1);
  return billingPeriodFor(timing, stepped);
}

/** The next billing day: the first day after the period holding `date` (an instant is read in the customer's zone). */
export function nextBillingDate(timing: SubscriptionTiming, date: Instant | LocalDate): LocalDate {
  return addDays(periodContaining(timing, customerDate(timing, date)).end, 1);
}

/**
 * Immediate plan change at `at`: the old subscription is billed up to the end of the day before,
 * the new one from the start of that day (it keeps the old anniversary).
 */
export function planChangeBoundaries(
  at: Instant,
  timezone = "UTC",
): { old_to_datetime: Date; new_from_datetime: Date } {
  const day = localDateOf(at, timezone);
  return {
    old_to_datetime: endOfLocalDay(addDays(day, -1), timezone),
    new_from_datetime: startOfLocalDay(day, timezone),
  };
}

const PER_YEAR: Record<PlanInterval, number> = { weekly: 52, monthly: 12, quarterly: 4, semiannual: 2, yearly: 1 };

/** Upgrade (applied now) when the new plan's yearly-equivalent amount is ≥ the old one; else a downgrade at period end. */
export function isUpgrade(
  oldPlan: { interval: PlanInterval; amount_cents: number },
  newPlan: { interval: PlanInterval; amount_cents: number },
): boolean {
  return newPlan.amount_cents * PER_YEAR[newPlan.interval] >= oldPlan.amount_cents * PER_YEAR[oldPlan.interval];
}

/**
 * The current billing period at `now` (Lago's current_billing_period_started_at/ending_at): the
 * period holding now for an active subscription, the last one for a terminated subscription, none
 * for a pending or canceled one (or one never started).
 */
export function currentBillingPeriod(
  s: Omit<SubscriptionTiming, "started_at"> & { status: string; started_at: Instant | null | undefined },
  now: Instant,
): { from: Date; to: Date } | null {
  if (!s.started_at || (s.status !== "active" && s.status !== "terminated")) return null;
  const at = s.status === "terminated" && s.terminated_at ? s.terminated_at : now;
  const period = billingPeriodFor({ ...s, started_at: s.started_at }, at);
  return { from: period.from_datetime, to: period.to_datetime };
}
