import { bucketId, hourOf, pageId, type SeriesKey } from "./buckets";
import { partialOf, type BucketPartial } from "./partials";
import type { IngestRecord } from "./stored-event";

/** The stored events of a unit that fall in one bucket, in stream order. */
export interface BucketEvents {
  id: string;
  series: SeriesKey;
  hour: number;
  events: IngestRecord[];
}

export function bucketsOf(records: Iterable<IngestRecord>): Map<string, BucketEvents> {
  const buckets = new Map<string, BucketEvents>();
  for (const r of records) {
    const hour = hourOf(r.t);
    const series = { org: r.org, sub: r.sub, code: r.code };
    const id = bucketId(series, hour);
    let bucket = buckets.get(id);
    if (!bucket) buckets.set(id, (bucket = { id, series, hour, events: [] }));
    bucket.events.push(r);
  }
  return buckets;
}

/** What one bucket receives: the events of messages after the last one it applied. */
export interface BucketChange {
  bucket: BucketEvents;
  events: IngestRecord[];
  partial: BucketPartial;
  /** the metric's field whose values the partial holds */
  field: string | null;
  page: { id: string; range: string };
  lastSeq: number;
}

/** `field`: the property the series' metric aggregates (null: unknown metric, or none). */
export function bucketChange(
  bucket: BucketEvents,
  appliedSeq: number,
  unitLastSeq: number,
  field: string | null,
): BucketChange | null {
  const events = bucket.events.filter((e) => e.s > appliedSeq);
  if (events.length === 0) return null;
  const partial = partialOf(
    events.map((e) => e.properties),
    field,
  );
  const range = `${events[0]!.s}-${unitLastSeq}`;
  return {
    bucket,
    events,
    partial,
    field,
    page: { id: pageId(bucket.id, events[0]!.s, unitLastSeq), range },
    lastSeq: unitLastSeq,
  };
}
