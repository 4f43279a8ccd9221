import { bucketId, hourCoverage, monthsOf, seriesMonthId, type SeriesKey } from "../../domain/buckets";
import { eventViewOf, type EventView } from "../../domain/stored-event";
import { findByIds, type BucketDoc, type UsageCollections } from "../../persistence/collections";

/** One series over [fromMs, toMs). */
export interface SeriesRange {
  series: SeriesKey;
  fromMs: number;
  toMs: number;
}

/**
 * The buckets of many series ranges over [fromMs, toMs), each range's in its own list: ONE read of
 * their months' hour lists and ONE read of the buckets, whatever the number of ranges (a billing
 * batch reads hundreds at once; `_id` reads, fast on the test server too).
 */
export async function bucketsOfRanges(c: UsageCollections, ranges: readonly SeriesRange[]): Promise<BucketDoc[][]> {
  const monthIds = ranges.map((r) => monthsOf(r.fromMs, r.toMs).map((m) => seriesMonthId(r.series, m)));
  const months = new Map((await findByIds(c.series, [...new Set(monthIds.flat())])).map((m) => [m._id, m]));
  const wanted = ranges.map((r, i) =>
    monthIds[i]!.flatMap((id) => months.get(id)?.hours ?? [])
      .filter((h) => hourCoverage(h, r.fromMs, r.toMs) !== "outside")
      .map((h) => bucketId(r.series, h)),
  );
  const buckets = new Map((await findByIds(c.buckets, [...new Set(wanted.flat())])).map((b) => [b._id, b]));
  return wanted.map((ids) => ids.flatMap((id) => buckets.get(id) ?? []));
}

export interface PageEvents {
  batch: string;
  events: EventView[];
}

/** A page's `e`, parsed: its `[ingest message index, events]` entries, checked (else a SyntaxError). */
function pageEntries(value: unknown): Array<[number, EventView[]]> {
  if (!Array.isArray(value)) throw new SyntaxError("event page: an array of entries expected");
  return value.map((entry: unknown): [number, EventView[]] => {
    if (!Array.isArray(entry) || typeof entry[0] !== "number" || !Array.isArray(entry[1]))
      throw new SyntaxError("event page: [index, events] expected");
    return [entry[0], entry[1].map(eventViewOf)];
  });
}

/** The events of many lists of buckets, each list's on its own: ONE read of all their pages. */
export async function readPagesOfMany(
  c: UsageCollections,
  lists: readonly (readonly BucketDoc[])[],
): Promise<PageEvents[][]> {
  const idLists = lists.map((buckets) => buckets.flatMap((b) => b.pg.map((range) => `${b._id}|${range}`)));
  const unique = [...new Set(idLists.flat())];
  const pages = new Map((await findByIds(c.pages, unique)).map((p) => [p._id, p]));
  if (pages.size !== unique.length)
    throw new Error(`event pages missing: ${unique.length - pages.size} of ${unique.length}`);
  const parsed = new Map<string, PageEvents[]>();
  const eventsOf = (id: string) => {
    let events = parsed.get(id);
    if (!events) {
      const p = pages.get(id)!;
      events = pageEntries(JSON.parse(p.e)).map(([seq, e]) => ({ batch: p.b[seq] ?? "", events: e }));
      parsed.set(id, events);
    }
    return events;
  };
  return idLists.map((ids) => ids.flatMap(eventsOf));
}
