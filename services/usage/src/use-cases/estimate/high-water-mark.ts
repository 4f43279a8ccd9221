import { Decimal, parseDecimal, type BillableMetric, type HighWaterMark, type UsageEvent } from "@billing/pricing";

const ZERO = new Decimal(0);
const ONE = new Decimal(1);

/**
 * The high-water mark the period's pay-in-advance fees left behind, rebuilt from the stored
 * events of one bucket (charge, filter, group) in time order — what Lago caches after each event:
 * sum_agg: running sum and its maximum; unique_count_agg: active values and their maximum.
 * Other aggregations have none (null). Same steps as the pricing library's per-event contribution.
 */
export function highWaterMark(metric: BillableMetric, events: readonly UsageEvent[]): HighWaterMark | null {
  if (metric.aggregation_type === "sum_agg") return sumMark(metric.field_name ?? "", events);
  if (metric.aggregation_type === "unique_count_agg") return uniqueMark(metric.field_name ?? "", events);
  return null;
}

function sumMark(field: string, events: readonly UsageEvent[]): HighWaterMark | null {
  let mark: { current: Decimal; max: Decimal } | null = null;
  for (const event of events) {
    const value = parseDecimal(event.properties?.[field]) ?? ZERO;
    if (!mark) mark = { current: value, max: value };
    else {
      const current: Decimal = mark.current.plus(value);
      mark = { current, max: current.gt(mark.max) ? current : mark.max };
    }
  }
  return mark && { current: mark.current.toString(), max: mark.max.toString() };
}

function uniqueMark(field: string, events: readonly UsageEvent[]): HighWaterMark | null {
  const active = new Map<string, boolean>();
  let mark: { current: Decimal; max: Decimal } | null = null;
  for (const event of events) {
    const raw = event.properties?.[field];
    const key = raw === undefined || raw === null ? null : String(raw);
    const adding = event.properties?.["operation_type"] !== "remove";
    const wasActive = key !== null && active.get(key) === true;
    const newly = adding && !wasActive ? ONE : ZERO;
    if (!mark) mark = { current: newly, max: newly };
    else {
      const current: Decimal = mark.current.plus(adding ? newly : wasActive ? -1 : 0);
      mark = { current, max: current.gt(mark.max) ? current : mark.max };
    }
    if (key !== null) active.set(key, adding);
  }
  return mark && { current: mark.current.toString(), max: mark.max.toString() };
}
