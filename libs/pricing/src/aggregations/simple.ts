import { Decimal, ONE, ZERO } from "../decimal";
import type { AggregationResult, UsageEvent } from "./types";
import { ExactSum, eventTime, numericValue } from "./values";

/** count_agg: the number of events. */
export function countAggregation(events: readonly UsageEvent[], withEventValues: boolean): AggregationResult {
  const n = events.length;
  return { units: new Decimal(n), eventsCount: n, eventValues: withEventValues ? events.map(() => ONE) : undefined };
}

/** sum_agg: Σ of the numeric field; events without a numeric value are ignored (and not counted). */
export function sumAggregation(
  events: readonly UsageEvent[],
  field: string,
  withEventValues: boolean,
): AggregationResult {
  if (withEventValues) {
    const values: Decimal[] = [];
    for (const event of events) {
      const value = numericValue(event, field);
      if (value !== null) values.push(value);
    }
    return { units: values.reduce((s, v) => s.plus(v), ZERO), eventsCount: values.length, eventValues: values };
  }
  const sum = new ExactSum();
  let count = 0;
  for (const event of events) {
    if (sum.add(event.properties?.[field])) count++;
  }
  return { units: sum.total(), eventsCount: count };
}

/** max_agg: the largest numeric value (0 without events). */
export function maxAggregation(events: readonly UsageEvent[], field: string): AggregationResult {
  let max: Decimal | null = null;
  let count = 0;
  for (const event of events) {
    const value = numericValue(event, field);
    if (value === null) continue;
    count++;
    if (max === null || value.gt(max)) max = value;
  }
  return { units: max ?? ZERO, eventsCount: count };
}

/** latest_agg: the value of the most recent event, negative values clamped to 0. */
export function latestAggregation(events: readonly UsageEvent[], field: string): AggregationResult {
  let latest: Decimal | null = null;
  let latestTime = -Infinity;
  let count = 0;
  for (const event of events) {
    const value = numericValue(event, field);
    if (value === null) continue;
    count++;
    const t = eventTime(event);
    if (t >= latestTime) ((latest = value), (latestTime = t));
  }
  return { units: latest === null || latest.isNegative() ? ZERO : latest, eventsCount: count };
}
