import { Decimal, ZERO, maxDecimal } from "../decimal";
import { type LocalDate, inclusiveDays } from "../periods/local-date";
import { localDateOf } from "../periods/timezone";
import { type HighWaterMark, highWaterStep } from "./high-water-mark";
import type { ProrationWindow } from "./prorated";
import { sumAggregation } from "./simple";
import type { AggregationResult, BillableMetric, UsageEvent } from "./types";
import { uniqueCountAggregation } from "./unique-count";
import { byTimestamp, eventTime, numericValue } from "./values";

/** days from `from` to `to` (both included) / period days; 0 when `from` is after `to`. */
export function remainingRatio(from: LocalDate, to: LocalDate, periodDays: number): Decimal {
  const days = inclusiveDays(from, to);
  return days <= 0 ? ZERO : new Decimal(days).div(periodDays);
}

/** A prorated pay-in-advance value: contribution × days left / period days, ceil'ed to 5 decimals (Lago). */
export function paidInAdvanceShare(contribution: Decimal, ratio: Decimal): Decimal {
  return contribution.times(ratio).toDecimalPlaces(5, Decimal.ROUND_CEIL);
}

/**
 * Usage of a prorated pay-in-advance charge (billing-rules §1.11), sum_agg or unique_count_agg:
 * what the period's events paid, kept when units leave. Units carried from earlier periods were
 * paid at the period start for the billed days (the whole period when not cut); each event of
 * the period paid, at once, what it raised the period's high-water mark by, for the days from its
 * date to the period end. A removal refunds nothing (a seat paid for February and removed on
 * Feb 3 still counts for all of February); re-adding units already paid for adds nothing.
 * units = Σ the paid shares (the prorated units priced); fullUnitsNumber = the units paid for.
 */
export function paidInAdvanceProratedAggregation(
  metric: BillableMetric,
  events: readonly UsageEvent[],
  window: ProrationWindow,
): AggregationResult {
  const field = metric.field_name ?? "";
  const sorted = byTimestamp(events);
  const before = sorted.filter((e) => eventTime(e) < window.fromMs);
  const carriedLevel =
    metric.aggregation_type === "unique_count_agg"
      ? uniqueCountAggregation(before, field, false).units
      : sumAggregation(before, field, false).units;
  const carried = maxDecimal(carriedLevel, ZERO);
  const values: Decimal[] = [];
  const shares: Decimal[] = [];
  if (!carried.isZero()) {
    values.push(carried);
    shares.push(paidInAdvanceShare(carried, remainingRatio(window.fromDate, window.toDate, window.periodDays)));
  }
  const prior: UsageEvent[] = [...before];
  let mark: HighWaterMark | null = null;
  let counted = before.filter((e) => numericValue(e, field) !== null).length;
  for (const event of sorted.slice(before.length)) {
    const step = highWaterStep(metric, event, prior, mark);
    mark = { current: step.current, max: step.max };
    prior.push(event);
    if (metric.aggregation_type === "sum_agg" && numericValue(event, field) !== null) counted++;
    if (step.contribution.isZero()) continue;
    values.push(step.contribution);
    shares.push(
      paidInAdvanceShare(
        step.contribution,
        remainingRatio(localDateOf(eventTime(event), window.timeZone), window.toDate, window.periodDays),
      ),
    );
  }
  const paidUnits = values.reduce((s, v) => s.plus(v), ZERO);
  return {
    units: shares.reduce((s, v) => s.plus(v), ZERO),
    // unique_count fees show the unique count as events_count (Lago quirk): here, the seats paid for
    eventsCount: metric.aggregation_type === "unique_count_agg" ? paidUnits.toNumber() : counted,
    fullUnitsNumber: paidUnits,
    eventValues: values,
    proratedEventValues: shares,
  };
}
