import { bucketId, hourCoverage, monthsOf, seriesMonthId, type SeriesKey } from "../../domain/buckets";
import type { EventView } from "../../domain/stored-event";
import { findByIds, type BucketDoc, type UsageCollections } from "../../persistence/collections";

/** The buckets of a series over [fromMs, toMs): those wholly inside, and the edge hours. */
export async function bucketsInRange(c: UsageCollections, series: SeriesKey, fromMs: number, toMs: number) {
  const months = await findByIds(c.series, monthsOf(fromMs, toMs).map((m) => seriesMonthId(series, m)));
  const hours = months.flatMap((m) => m.hours);
  const wanted = hours.filter((h) => hourCoverage(h, fromMs, toMs) !== "outside");
  const buckets = await findByIds(c.buckets, wanted.map((h) => bucketId(series, h)));
  const whole: BucketDoc[] = [];
  const edge: BucketDoc[] = [];
  for (const b of buckets) (hourCoverage(b.h, fromMs, toMs) === "whole" ? whole : edge).push(b);
  return { whole, edge };
}

export interface PageEvents {
  batch: string;
  events: EventView[];
}

/** The events of these buckets (their listed pages only), per ingest message. */
export async function readPages(c: UsageCollections, buckets: readonly BucketDoc[]): Promise<PageEvents[]> {
  const ids = buckets.flatMap((b) => b.pg.map((range) => `${b._id}|${range}`));
  const pages = await findByIds(c.pages, ids);
  if (pages.length !== ids.length) throw new Error(`event pages missing: ${ids.length - pages.length} of ${ids.length}`);
  return pages.flatMap((p) => (JSON.parse(p.e) as Array<[number, EventView[]]>).map(([seq, events]) => ({ batch: p.b[seq] ?? "", events })));
}
