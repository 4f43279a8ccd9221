import {
  instantMs,
  payInAdvanceFilterIndex,
  pricingGroupKeys,
  type BillableMetric,
  type ChargeFilter,
  type HighWaterMark,
  type MetricFilter,
  type UsageEvent,
} from "@billing/pricing";
import type { ChargeCopy } from "../../domain/read-copies";
import { highWaterMark } from "./high-water-mark";

type PricingMetric = BillableMetric & { filters: MetricFilter[] };

/** The stored events of one pay-in-advance bucket (charge, filter, pricing group) and the mark they left. */
export interface Bucket {
  events: UsageEvent[];
  mark: HighWaterMark | null;
}

interface Partition {
  /** The metric copy it was made with (its filters resolve the charge's). */
  metric: PricingMetric;
  buckets: Map<string, UsageEvent[]>;
  marks: Map<string, HighWaterMark | null>;
}

/**
 * Partitions per stored-events array and charge (by identity: a plan update brings new charge
 * objects): a cached period read is split into buckets once, not per estimate.
 */
const partitions = new WeakMap<readonly UsageEvent[], WeakMap<ChargeCopy, Partition>>();

const groupKey = (e: UsageEvent, keys: readonly string[]) =>
  keys.length === 0
    ? ""
    : JSON.stringify(keys.map((k) => (e.properties?.[k] == null ? null : String(e.properties[k]))));

/** The filter an event falls in (the one with most keys; null = none) and the pricing group keys that apply to it. */
export function bucketOf(charge: ChargeCopy, metric: PricingMetric, event: UsageEvent) {
  const filters = charge.filters as ChargeFilter[];
  const index = filters.length === 0 ? null : payInAdvanceFilterIndex(event, filters, metric.filters);
  const properties = index === null ? charge.properties : (filters[index]!.properties ?? {});
  const keys = pricingGroupKeys(properties);
  return { index, properties, keys, key: `${index}\u0000${groupKey(event, keys)}` };
}

function partition(stored: readonly UsageEvent[], charge: ChargeCopy, metric: PricingMetric): Partition {
  let byCharge = partitions.get(stored);
  if (!byCharge) partitions.set(stored, (byCharge = new WeakMap()));
  let found = byCharge.get(charge);
  if (!found || found.metric !== metric) {
    found = { metric, buckets: new Map(), marks: new Map() };
    for (const e of stored) {
      const { key } = bucketOf(charge, metric, e);
      let events = found.buckets.get(key);
      if (!events) found.buckets.set(key, (events = []));
      events.push(e);
    }
    byCharge.set(charge, found);
  }
  return found;
}

/**
 * The bucket's stored events up to `atMs` and their high-water mark. Both are computed once per
 * stored-events array; events later than `atMs` (future timestamps) make a fresh, filtered copy.
 */
export function storedBucket(
  stored: readonly UsageEvent[],
  charge: ChargeCopy,
  metric: PricingMetric,
  key: string,
  atMs: number,
): Bucket {
  const p = partition(stored, charge, metric);
  const events = p.buckets.get(key) ?? [];
  const last = events[events.length - 1];
  if (last && instantMs(last.timestamp) > atMs) {
    const upTo = events.filter((e) => instantMs(e.timestamp) <= atMs);
    return { events: upTo, mark: highWaterMark(metric, upTo) };
  }
  if (!p.marks.has(key)) p.marks.set(key, highWaterMark(metric, events));
  return { events, mark: p.marks.get(key)! };
}
