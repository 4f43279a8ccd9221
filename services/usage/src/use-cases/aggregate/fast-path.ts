import { applyMetricRounding, Decimal, type BillableMetric } from "@billing/pricing";
import { hourCoverage, type SeriesKey } from "../../domain/buckets";
import { fieldName } from "../../domain/field-paths";
import { partialOf } from "../../domain/partials";
import type { BucketDoc, UsageCollections } from "../../persistence/collections";
import { bucketsOfRanges, readPagesOfMany, type PageEvents } from "./bucket-reader";

export const FAST_AGGREGATIONS = new Set(["count_agg", "sum_agg", "max_agg"]);

/** Whether a bucket's partials hold the field wholly. */
const covers = (b: BucketDoc, field: string) => b.tf.includes(field) && !b.x?.[field];

/** One series' count_agg / sum_agg / max_agg over [fromMs, toMs). */
export interface FastRange {
  metric: BillableMetric;
  series: SeriesKey;
  fromMs: number;
  toMs: number;
}

export interface FastUnits {
  units: Decimal;
  eventsCount: number;
}

/**
 * count_agg / sum_agg / max_agg over [from, to) from the hourly buckets' partials: the whole
 * hours from their partials, the edge hours (and any bucket without complete partials for the
 * field) from their events. Same numbers as the pricing library's aggregations (the same
 * decimal parsing; non-numeric values ignored and not counted). Many ranges cost two `_id` reads
 * of buckets (their months' hour lists, then the buckets) and one of the pages they need.
 */
export async function fastAggregateMany(c: UsageCollections, ranges: readonly FastRange[]): Promise<FastUnits[]> {
  const bucketLists = await bucketsOfRanges(c, ranges);
  const split = ranges.map((r, i) => {
    const whole: BucketDoc[] = [];
    const fromEvents: BucketDoc[] = [];
    const isCount = r.metric.aggregation_type === "count_agg";
    const field = fieldName(r.metric.field_name ?? "");
    for (const b of bucketLists[i]!) {
      if (hourCoverage(b.h, r.fromMs, r.toMs) !== "whole" || (!isCount && !covers(b, field))) fromEvents.push(b);
      else whole.push(b);
    }
    return { whole, fromEvents };
  });
  const pages = await readPagesOfMany(
    c,
    split.map((s) => s.fromEvents),
  );
  return ranges.map((r, i) => unitsOf(r, split[i]!.whole, pages[i]!));
}

/** One series' range, as fastAggregateMany reads it. */
export async function fastAggregate(
  c: UsageCollections,
  metric: BillableMetric,
  series: SeriesKey,
  fromMs: number,
  toMs: number,
): Promise<FastUnits> {
  return (await fastAggregateMany(c, [{ metric, series, fromMs, toMs }]))[0]!;
}

/** The units and count of a range: its whole buckets' partials, plus its other buckets' events inside [fromMs, toMs). */
function unitsOf(r: FastRange, whole: readonly BucketDoc[], pages: readonly PageEvents[]): FastUnits {
  const { metric } = r;
  const round = (d: Decimal) => applyMetricRounding(d, metric.rounding_function, metric.rounding_precision);
  const isCount = metric.aggregation_type === "count_agg";
  // without a field no event has a value (as in the pricing library)
  if (!isCount && !metric.field_name) return { units: round(new Decimal(0)), eventsCount: 0 };
  const field = fieldName(metric.field_name ?? "");
  let count = 0;
  let sum = new Decimal(0);
  let max: Decimal | null = null;
  for (const b of whole) {
    if (isCount) count += b.n;
    else if (b.f[field]) {
      const f = b.f[field]!;
      count += f.c;
      sum = sum.plus(f.s.toString());
      const m = new Decimal(f.m.toString());
      if (max === null || m.gt(max)) max = m;
    }
  }
  const inRange = pages.flatMap((page) =>
    page.events.filter((e) => {
      const t = Date.parse(e.timestamp);
      return t >= r.fromMs && t < r.toMs;
    }),
  );
  const events = partialOf(
    inRange.map((e) => e.properties),
    metric.field_name ?? null,
  );
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
