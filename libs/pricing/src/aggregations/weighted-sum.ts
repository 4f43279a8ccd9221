import { Decimal, type DecimalLike, ZERO, toDecimal } from "../decimal";
import type { AggregationResult, UsageEvent } from "./types";
import { byTimestamp, eventTime, numericValue } from "./values";

export interface WeightedSumWindow {
  fromMs: number;
  toMs: number;
  /** Full charges period length in days (the divisor). */
  periodDays: number;
  /** Level at the start of the period: 0, or the previous period's final level for a recurring metric. */
  initialValue?: DecimalLike | null;
}

/**
 * weighted_sum_agg: each event value is a delta of a level that starts at the initial value;
 * result = Σ level × seconds held / period seconds. The last level runs to the end of the period
 * rounded up to the whole second. total_aggregated_units is the final level.
 */
export function weightedSumAggregation(
  events: readonly UsageEvent[],
  field: string,
  window: WeightedSumWindow,
): AggregationResult {
  const points: { t: number; delta: Decimal }[] = [{ t: window.fromMs, delta: toDecimal(window.initialValue) }];
  for (const event of byTimestamp(events)) {
    const delta = numericValue(event, field);
    if (delta !== null) points.push({ t: eventTime(event), delta });
  }
  const end = Math.ceil(window.toMs / 1000) * 1000;
  let level = ZERO;
  let weighted = ZERO;
  points.forEach((point, i) => {
    level = level.plus(point.delta);
    const next = points[i + 1]?.t ?? end;
    if (next > point.t) weighted = weighted.plus(level.times(next - point.t).div(1000));
  });
  const periodSeconds = new Decimal(window.periodDays).times(86_400);
  return { units: weighted.div(periodSeconds), eventsCount: points.length - 1, totalAggregatedUnits: level };
}
