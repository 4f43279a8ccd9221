import { applyMetricRounding, Decimal, type BillableMetric } from "@billing/pricing";
import type { SeriesKey } from "../domain/buckets";
import { fieldName } from "../domain/field-paths";
import { partialOf } from "../domain/partials";
import type { UsageCollections } from "../persistence/collections";
import { bucketsInRange, readPages } from "./bucket-reader";

export const FAST_AGGREGATIONS = new Set(["count_agg", "sum_agg", "max_agg"]);

/**
 * count_agg / sum_agg / max_agg over [from, to) from the hourly buckets' partials: the whole
 * hours from their partials, the edge hours from their events. Same numbers as the pricing
 * library's aggregations (the same decimal parsing; non-numeric values ignored and not counted).
 * Null when a bucket holds a value Decimal128 cannot (the caller takes the exact path).
 */
export async function fastAggregate(
  c: UsageCollections,
  metric: BillableMetric,
  series: SeriesKey,
  fromMs: number,
  toMs: number,
): Promise<{ units: Decimal; eventsCount: number } | null> {
  const isCount = metric.aggregation_type === "count_agg";
  // without a field no event has a value (as in the pricing library)
  if (!isCount && !metric.field_name) return { units: applyMetricRounding(new Decimal(0), metric.rounding_function, metric.rounding_precision), eventsCount: 0 };
  const { whole, edge } = await bucketsInRange(c, series, fromMs, toMs);
  const field = fieldName(metric.field_name ?? "");
  let count = 0;
  let sum = new Decimal(0);
  let max: Decimal | null = null;
  for (const b of whole) {
    if (isCount) {
      count += b.n;
      continue;
    }
    if (b.x?.[field]) return null;
    const f = b.f[field];
    if (!f) continue;
    count += f.c;
    sum = sum.plus(f.s.toString());
    const m = new Decimal(f.m.toString());
    if (max === null || m.gt(max)) max = m;
  }
  const inRange = (await readPages(c, edge)).flatMap((page) => page.events.filter((e) => {
    const t = Date.parse(e.timestamp);
    return t >= fromMs && t < toMs;
  }));
  const edges = partialOf(inRange.map((e) => e.properties));
  const e = edges.fields.get(metric.field_name ?? "");
  if (isCount) count += edges.events;
  else if (e) {
    count += e.count;
    sum = sum.plus(e.sum);
    if (max === null || e.max.gt(max)) max = e.max;
  }
  const raw = isCount ? new Decimal(count) : metric.aggregation_type === "sum_agg" ? sum : (max ?? new Decimal(0));
  return { units: applyMetricRounding(raw, metric.rounding_function, metric.rounding_precision), eventsCount: count };
}
