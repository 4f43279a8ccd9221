import type { UsageEvent } from "@billing/pricing";
import type { PeriodQuery } from "../../domain/usage-event";
import type { EventView } from "../../domain/stored-event";
import { findByIds, type BucketDoc, type UsageCollections } from "../../persistence/collections";
import { bucketsOfRanges } from "../aggregate/bucket-reader";

/** A stored event as the audit reads it: what pricing needs, times as Unix ms (no Date per event: 1M of them is an audit). */
export interface RawEvent extends UsageEvent {
  svc_id: string;
  transaction_id: string;
  code: string;
  external_subscription_id: string;
  timestamp: number;
  properties: Record<string, unknown>;
  /** acknowledged at (business time), Unix ms */
  created: number;
  /** the ingest stream sequence of the message that carried it */
  seq: number;
}

/** The listed pages of each list of buckets, per ingest message with its sequence: ONE read of all of them. */
async function pagesOfMany(c: UsageCollections, lists: readonly (readonly BucketDoc[])[]): Promise<Array<Array<[number, EventView[]]>>> {
  const idLists = lists.map((buckets) => buckets.flatMap((b) => b.pg.map((range) => `${b._id}|${range}`)));
  const unique = [...new Set(idLists.flat())];
  const pages = new Map((await findByIds(c.pages, unique)).map((p) => [p._id, p]));
  if (pages.size !== unique.length) throw new Error(`event pages missing: ${unique.length - pages.size} of ${unique.length}`);
  const parsed = new Map<string, Array<[number, EventView[]]>>();
  const of = (id: string) => {
    let groups = parsed.get(id);
    if (!groups) parsed.set(id, (groups = JSON.parse(pages.get(id)!.e) as Array<[number, EventView[]]>));
    return groups;
  };
  return idLists.map((ids) => ids.flatMap(of));
}

const byTimeThenTransaction = (a: RawEvent, b: RawEvent) =>
  a.timestamp - b.timestamp || (a.transaction_id < b.transaction_id ? -1 : a.transaction_id > b.transaction_id ? 1 : 0);

/**
 * The raw events of each query over [from, to), in billing's order (time, then transaction id):
 * the events themselves from the buckets' pages, never the buckets' partials.
 *
 * Reads: the series' month documents, the hourly buckets, then their pages — three `_id $in`
 * reads of ids computed from (organization, subscription, code, hour, page range), whatever the
 * number of queries: indexed on real MongoDB AND on the test server (mongo-java-server's only index
 * is `_id` equality). A page's id starts with its bucket's id, whose hour sorts in time order, so on
 * real MongoDB a period's pages could equally be read as ONE `_id` range; the test server would scan
 * the collection for a range, so the ids are listed instead (the bucket documents list them).
 */
export async function rawEventsOfMany(c: UsageCollections, queries: readonly PeriodQuery[]): Promise<RawEvent[][]> {
  const ranges = queries.map((q) => ({
    series: { org: q.organizationId, sub: q.externalSubscriptionId, code: q.code }, fromMs: q.from.getTime(), toMs: q.to.getTime(),
  }));
  const pageLists = await pagesOfMany(c, await bucketsOfRanges(c, ranges));
  return pageLists.map((pages, i) => {
    const { fromMs, toMs } = ranges[i]!;
    const out: RawEvent[] = [];
    for (const [seq, events] of pages) {
      for (const e of events) {
        const t = Date.parse(e.timestamp);
        if (t < fromMs || t >= toMs) continue;
        out.push({
          svc_id: e.svc_id, transaction_id: e.transaction_id, code: e.code, external_subscription_id: e.external_subscription_id,
          timestamp: t, properties: e.properties, precise_total_amount_cents: e.precise_total_amount_cents, created: Date.parse(e.created_at), seq,
        });
      }
    }
    return out.sort(byTimeThenTransaction);
  });
}
