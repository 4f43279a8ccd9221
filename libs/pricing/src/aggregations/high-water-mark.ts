import { type Decimal, type DecimalLike, ONE, ZERO, maxDecimal, toDecimal } from "../decimal";
import type { BillableMetric, UsageEvent } from "./types";
import { operationOf, uniqueKey, uniqueTimelines } from "./unique-count";
import { numericValue } from "./values";

/** The cached aggregation of a (subscription, charge, filter, group, period): running value and period maximum. */
export interface HighWaterMark {
  current: DecimalLike;
  max: DecimalLike;
}

/** One pay-in-advance event against the period's high-water mark (billing-rules §1.12). */
export interface HighWaterStep {
  /** What the event adds above the period maximum (what is paid for). */
  contribution: Decimal;
  current: Decimal;
  max: Decimal;
  /** Units the event applied without raising the maximum (shown as the fee's units), else null. */
  applied: Decimal | null;
}

/**
 * The event's contribution above the high-water mark and the new mark. sum_agg and
 * unique_count_agg: contribution = max(0, new current − old max), so negative events and units
 * re-added after a removal are free; other aggregations contribute their own value.
 * `prior` are the bucket's events before this one (a unique value is added only if not active).
 */
export function highWaterStep(
  metric: BillableMetric,
  event: UsageEvent,
  prior: readonly UsageEvent[],
  mark: HighWaterMark | null | undefined,
): HighWaterStep {
  if (metric.aggregation_type === "unique_count_agg") {
    const key = uniqueKey(event, metric.field_name ?? "");
    const timeline = key === null ? undefined : uniqueTimelines(prior, metric.field_name ?? "").get(key);
    const active = timeline?.[timeline.length - 1]?.op === "add";
    const adding = operationOf(event) === "add";
    const newly = adding && !active ? ONE : ZERO;
    if (!mark) return { contribution: newly, current: newly, max: newly, applied: newly };
    const current = toDecimal(mark.current).plus(adding ? newly : active ? -1 : 0);
    return raise(current, toDecimal(mark.max), newly);
  }
  if (metric.aggregation_type !== "sum_agg") {
    const value = metric.aggregation_type === "count_agg" ? ONE : (numericValue(event, metric.field_name) ?? ZERO);
    return { contribution: value, current: value, max: value, applied: null };
  }
  const value = numericValue(event, metric.field_name) ?? ZERO;
  if (!mark) return { contribution: maxDecimal(value, ZERO), current: value, max: value, applied: value };
  return raise(toDecimal(mark.current).plus(value), toDecimal(mark.max), value);
}

function raise(current: Decimal, oldMax: Decimal, applied: Decimal): HighWaterStep {
  if (current.gt(oldMax)) return { contribution: current.minus(oldMax), current, max: current, applied: null };
  return { contribution: ZERO, current, max: oldMax, applied };
}
