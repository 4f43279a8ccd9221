import { type DecimalLike } from "../decimal";
import { localDateOf, type Instant, instantMs } from "../periods/timezone";
import { applyMetricRounding } from "../rounding";
import { paidInAdvanceProratedAggregation } from "./prorated-in-advance";
import { proratedSumAggregation, proratedUniqueCountAggregation, type ProrationWindow } from "./prorated";
import { type FreeUnitsOptions, countingRunningTotal, hasFreeUnits, runningTotal } from "./running-total";
import { countAggregation, latestAggregation, maxAggregation, sumAggregation } from "./simple";
import type { AggregationResult, BillableMetric, UsageEvent } from "./types";
import { uniqueCountAggregation } from "./unique-count";
import { byTimestamp, eventTime, numericValue } from "./values";
import { weightedSumAggregation } from "./weighted-sum";

export interface AggregateOptions {
  /** charges_from_datetime (inclusive). Recurring sum/unique_count metrics ignore it. */
  from?: Instant | null;
  /** charges_to_datetime (inclusive). */
  to?: Instant | null;
  /** Full charges period length in days (weighted_sum divisor, proration divisor). */
  periodDays?: number;
  /** Customer time zone for day counting (proration). Default UTC. */
  timeZone?: string;
  /** weighted_sum: level at the period start (recurring metrics). */
  initialValue?: DecimalLike | null;
  /** Percentage charges: the free-unit settings that need a running total. */
  freeUnits?: FreeUnitsOptions;
  /** Keep per-event values (percentage per-transaction min/max). */
  withEventValues?: boolean;
  /** Prorated charge (sum_agg / unique_count_agg only). */
  prorated?: boolean;
  /** With `prorated`: a pay-in-advance charge, whose usage keeps what was paid (billing-rules §1.11). */
  payInAdvance?: boolean;
  /** Apply rounding_function (default true; pay-in-advance aggregation does not round). */
  applyRounding?: boolean;
}

function inScope(
  metric: BillableMetric,
  events: readonly UsageEvent[],
  fromMs: number,
  toMs: number,
  keepEarlier: boolean,
) {
  const ignoreFrom =
    keepEarlier || (metric.recurring === true && ["sum_agg", "unique_count_agg"].includes(metric.aggregation_type));
  if (fromMs === -Infinity && toMs === Infinity) return events;
  const inside = (event: UsageEvent) => {
    const t = eventTime(event);
    return t <= toMs && (ignoreFrom || t >= fromMs);
  };
  // most often every event is in scope: no copy (an audit prices a million events)
  return events.every(inside) ? events : events.filter(inside);
}

function prorationWindow(options: AggregateOptions, fromMs: number, toMs: number): ProrationWindow {
  const timeZone = options.timeZone ?? "UTC";
  if (options.from == null || options.to == null || !options.periodDays) {
    throw new RangeError("a prorated aggregation needs from, to and periodDays");
  }
  return {
    fromMs,
    fromDate: localDateOf(fromMs, timeZone),
    toDate: localDateOf(toMs, timeZone),
    periodDays: options.periodDays,
    timeZone,
  };
}

function baseAggregation(
  metric: BillableMetric,
  events: readonly UsageEvent[],
  options: AggregateOptions,
  fromMs: number,
  toMs: number,
): AggregationResult {
  const field = metric.field_name ?? "";
  const withValues = options.withEventValues === true;
  switch (metric.aggregation_type) {
    case "count_agg":
      return countAggregation(events, withValues);
    case "sum_agg":
      if (options.prorated && options.payInAdvance)
        return paidInAdvanceProratedAggregation(metric, events, prorationWindow(options, fromMs, toMs));
      if (options.prorated) return proratedSumAggregation(events, field, prorationWindow(options, fromMs, toMs));
      return sumAggregation(withValues ? byTimestamp(events) : events, field, withValues);
    case "max_agg":
      return maxAggregation(events, field);
    case "latest_agg":
      return latestAggregation(events, field);
    case "unique_count_agg":
      if (options.prorated && options.payInAdvance)
        return paidInAdvanceProratedAggregation(metric, events, prorationWindow(options, fromMs, toMs));
      if (options.prorated)
        return proratedUniqueCountAggregation(events, field, prorationWindow(options, fromMs, toMs));
      return uniqueCountAggregation(events, field, withValues);
    case "weighted_sum_agg":
      if (options.from == null || options.to == null || !options.periodDays) {
        throw new RangeError("weighted_sum_agg needs from, to and periodDays");
      }
      return weightedSumAggregation(events, field, {
        fromMs,
        toMs,
        periodDays: options.periodDays,
        initialValue: options.initialValue,
      });
    default:
      throw new RangeError(`unsupported aggregation: ${metric.aggregation_type}`);
  }
}

/**
 * Aggregates a metric over the events of one bucket (subscription × metric × filter × group)
 * for a charges period, then applies the metric rounding.
 */
export function aggregate(
  metric: BillableMetric,
  events: readonly UsageEvent[],
  options: AggregateOptions = {},
): AggregationResult {
  const fromMs = options.from == null ? -Infinity : instantMs(options.from);
  const toMs = options.to == null ? Infinity : instantMs(options.to);
  const scoped = inScope(metric, events, fromMs, toMs, options.prorated === true);
  const result = baseAggregation(metric, scoped, options, fromMs, toMs);
  if (options.freeUnits) result.runningTotal = freeUnitsRunningTotal(metric, scoped, result, options.freeUnits);
  if (options.applyRounding === false) return result;
  const round = (value: typeof result.units) =>
    applyMetricRounding(value, metric.rounding_function, metric.rounding_precision);
  result.units = round(result.units);
  if (result.fullUnitsNumber) result.fullUnitsNumber = round(result.fullUnitsNumber);
  return result;
}

function freeUnitsRunningTotal(
  metric: BillableMetric,
  events: readonly UsageEvent[],
  result: AggregationResult,
  free: FreeUnitsOptions,
) {
  // without free units the running total is empty: no event's value is read (a percentage charge over 1M events)
  if (!hasFreeUnits(free)) return [];
  if (metric.aggregation_type === "count_agg" || metric.aggregation_type === "unique_count_agg") {
    return countingRunningTotal(result.units, free);
  }
  const values = result.eventValues ?? byTimestamp(events).flatMap((e) => numericValue(e, metric.field_name) ?? []);
  return runningTotal(values, free);
}
