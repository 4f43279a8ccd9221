import type { UsageEvent } from "@billing/pricing";
import type { PeriodQuery } from "../../domain/usage-event";
import type { UsageCollections } from "../../persistence/collections";
import { bucketsOfRanges, readPagesOfMany } from "../aggregate/bucket-reader";

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
  const pageLists = await readPagesOfMany(c, await bucketsOfRanges(c, ranges));
  return pageLists.map((pages, i) => {
    const { fromMs, toMs } = ranges[i]!;
    const out: RawEvent[] = [];
    for (const page of pages) {
      for (const e of page.events) {
        const t = Date.parse(e.timestamp);
        if (t < fromMs || t >= toMs) continue;
        out.push({
          svc_id: e.svc_id, transaction_id: e.transaction_id, code: e.code, external_subscription_id: e.external_subscription_id,
          timestamp: t, properties: e.properties, precise_total_amount_cents: e.precise_total_amount_cents, created: Date.parse(e.created_at),
        });
      }
    }
    return out.sort(byTimeThenTransaction);
  });
}
