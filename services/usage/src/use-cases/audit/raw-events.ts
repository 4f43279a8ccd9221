import type { mongo } from "mongoose";
import type { PeriodQuery } from "../../domain/usage-event";
import type { BucketDoc, EventPageDoc, UsageCollections } from "../../persistence/collections";
import { bucketsOfRanges } from "../aggregate/bucket-reader";
import { PageEvent, rawPage, scanPage } from "./page-scan";

/** A stored event as the audit reads it: times as Unix ms (no Date per event: 1M of them is an audit), the rest decoded when read. */
export type RawEvent = PageEvent;

/** The order events are answered in: billing's (time, then transaction id), or storage's (ingest message, then position in it). */
export type RawOrder = "time" | "stored";

const byTimeThenTransaction = (a: RawEvent, b: RawEvent) =>
  a.timestamp - b.timestamp || (a.transaction_id < b.transaction_id ? -1 : a.transaction_id > b.transaction_id ? 1 : 0);

/** Storage's order: the ingest message, then the event's place in it (pages written before positions were kept: by time). */
const byStorage = (a: RawEvent, b: RawEvent) => a.seq - b.seq || a.pos - b.pos || byTimeThenTransaction(a, b);

function sortedBy(events: RawEvent[], compare: (a: RawEvent, b: RawEvent) => number): RawEvent[] {
  for (let k = 1; k < events.length; k++) if (compare(events[k - 1]!, events[k]!) > 0) return events.sort(compare);
  return events;
}

/** Pages per `_id $in` read: a page holds one hour's events of a few ingest messages (up to a few hundred KB of text). */
const PAGES_PER_READ = 16;

/**
 * The raw events of each query over [from, to): the events themselves, from the buckets' pages
 * (never the buckets' partials), in billing's order (time, then transaction id) or storage's.
 *
 * Reads: the series' month documents, the hourly buckets, then their pages — `_id $in` reads of
 * ids computed from (organization, subscription, code, hour, page range), indexed on real MongoDB
 * AND on the test server (mongo-java-server's only index is `_id` equality). A page's id starts
 * with its bucket's id, whose hour sorts in time order, so on real MongoDB a period's pages could
 * equally be read as ONE `_id` range; the test server would scan the collection for a range, so
 * the ids are listed instead (the bucket documents list them).
 *
 * The pages are read in small `$in` reads issued together, as raw BSON, and each is decoded as soon
 * as it arrives (page-scan.ts: neither the page's text nor its JSON decoded whole; only the fields a
 * charge reads), so the
 * decoding of the first pages overlaps the server's sending of the next. A bucket is one hour:
 * billing's order is each hour's events sorted (most often already in order), hour after hour.
 */
export async function rawEventsOfMany(
  c: UsageCollections,
  queries: readonly PeriodQuery[],
  order: RawOrder = "time",
): Promise<RawEvent[][]> {
  const ranges = queries.map((q) => ({
    series: { org: q.organizationId, sub: q.externalSubscriptionId, code: q.code },
    fromMs: q.from.getTime(),
    toMs: q.to.getTime(),
  }));
  const bucketLists = (await bucketsOfRanges(c, ranges)).map((list) => [...list].sort((a, b) => a.h - b.h));
  const pageIdsOf = (b: BucketDoc) => b.pg.map((range) => `${b._id}|${range}`);
  const unique = [...new Set(bucketLists.flat().flatMap(pageIdsOf))];
  // the decoded events of each page, per query that reads it (queries of one series over different periods share pages)
  const readers = new Map<string, number[]>();
  bucketLists.forEach((list, i) =>
    list.forEach((b) =>
      pageIdsOf(b).forEach((id) => {
        const r = readers.get(id);
        if (r) r.push(i);
        else readers.set(id, [i]);
      }),
    ),
  );
  const decoded = new Map<string, RawEvent[][]>();
  let found = 0;
  const reads: Promise<void>[] = [];
  for (let k = 0; k < unique.length; k += PAGES_PER_READ) {
    const filter = { _id: { $in: unique.slice(k, k + PAGES_PER_READ) } } as unknown as mongo.Filter<EventPageDoc>;
    // raw: the documents' BSON bytes, the page's text left undecoded (page-scan.ts reads it as bytes)
    reads.push(
      c.pages
        .find(filter, { projection: { e: 1 }, raw: true })
        .toArray()
        .then((docs) => {
          for (const doc of docs as unknown as Buffer[]) {
            const page = rawPage(doc);
            found++;
            const queriesOf = readers.get(page.id)!;
            const lists = queriesOf.map(() => [] as RawEvent[]);
            if (queriesOf.length === 1) {
              const { fromMs, toMs } = ranges[queriesOf[0]!]!;
              const list = lists[0]!;
              scanPage(page.e, (e) => {
                if (e.timestamp >= fromMs && e.timestamp < toMs) list.push(e);
              });
            } else {
              scanPage(page.e, (e) =>
                queriesOf.forEach((q, n) => {
                  const { fromMs, toMs } = ranges[q]!;
                  if (e.timestamp >= fromMs && e.timestamp < toMs) lists[n]!.push(e);
                }),
              );
            }
            decoded.set(page.id, lists);
          }
        }),
    );
  }
  await Promise.all(reads);
  if (found !== unique.length) throw new Error(`event pages missing: ${unique.length - found} of ${unique.length}`);
  return bucketLists.map((list, i) => {
    const out: RawEvent[] = [];
    for (const b of list) {
      const ids = pageIdsOf(b);
      const listOf = (id: string) => decoded.get(id)![readers.get(id)!.indexOf(i)]!;
      // one page per hour is the common case: its own list, sorted in place
      const hour = ids.length === 1 ? listOf(ids[0]!) : ids.flatMap(listOf);
      const sorted = order === "time" ? sortedBy(hour, byTimeThenTransaction) : hour;
      for (let k = 0; k < sorted.length; k++) out.push(sorted[k]!);
    }
    return order === "stored" ? sortedBy(out, byStorage) : out;
  });
}
