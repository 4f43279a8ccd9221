import { applyMetricRounding, Decimal, type BillableMetric } from "@billing/pricing";
import type { SeriesKey } from "../../domain/buckets";
import { fieldName } from "../../domain/field-paths";
import { partialOf } from "../../domain/partials";
import type { BucketDoc, UsageCollections } from "../../persistence/collections";
import { bucketsInRange, readPages } from "./bucket-reader";

export const FAST_AGGREGATIONS = new Set(["count_agg", "sum_agg", "max_agg"]);

/** Whether a bucket's partials hold the field wholly. */
const covers = (b: BucketDoc, field: string) => b.tf.includes(field) && !b.x?.[field];

/**
 * count_agg / sum_agg / max_agg over [from, to) from the hourly buckets' partials: the whole
 * hours from their partials, the edge hours (and any bucket without complete partials for the
 * field) from their events. Same numbers as the pricing library's aggregations (the same
 * decimal parsing; non-numeric values ignored and not counted).
 */
export async function fastAggregate(
  c: UsageCollections,
  metric: BillableMetric,
  series: SeriesKey,
  fromMs: number,
  toMs: number,
): Promise<{ units: Decimal; eventsCount: number }> {
  const round = (d: Decimal) => applyMetricRounding(d, metric.rounding_function, metric.rounding_precision);
  const isCount = metric.aggregation_type === "count_agg";
  // without a field no event has a value (as in the pricing library)
  if (!isCount && !metric.field_name) return { units: round(new Decimal(0)), eventsCount: 0 };
  const { whole, edge } = await bucketsInRange(c, series, fromMs, toMs);
  const field = fieldName(metric.field_name ?? "");
  const fromEvents = [...edge];
  let count = 0;
  let sum = new Decimal(0);
  let max: Decimal | null = null;
  for (const b of whole) {
    if (isCount) count += b.n;
    else if (!covers(b, field)) fromEvents.push(b);
    else if (b.f[field]) {
      const f = b.f[field]!;
      count += f.c;
      sum = sum.plus(f.s.toString());
      const m = new Decimal(f.m.toString());
      if (max === null || m.gt(max)) max = m;
    }
  }
  const inRange = (await readPages(c, fromEvents)).flatMap((page) =>
    page.events.filter((e) => {
      const t = Date.parse(e.timestamp);
      return t >= fromMs && t < toMs;
    }),
  );
  const events = partialOf(inRange.map((e) => e.properties), metric.field_name ?? null);
  const e = events.fields.get(metric.field_name ?? "");
  if (isCount) count += events.events;
  else if (e) {
    count += e.count;
    sum = sum.plus(e.sum);
    if (max === null || e.max.gt(max)) max = e.max;
  }
  const raw = isCount ? new Decimal(count) : metric.aggregation_type === "sum_agg" ? sum : (max ?? new Decimal(0));
  return { units: round(raw), eventsCount: count };
}
