import type { BillableMetric } from "@billing/pricing";
import { toUsageEventRecord } from "../../domain/stored-event";
import type { PeriodQuery, UsageEventRecord, UsageReader } from "../../domain/usage-event";
import type { UsageCollections } from "../../persistence/collections";
import { bucketsOfRanges, readPagesOfMany } from "./bucket-reader";
import { fastAggregateMany, type FastUnits } from "./fast-path";

/** Stored usage, one query or many at once. */
export interface StoredUsageReader extends UsageReader {
  /** The events of each query, in its order: three reads for all of them (a billing batch, a customer's charges). */
  eventsOfMany(queries: readonly PeriodQuery[]): Promise<UsageEventRecord[][]>;
  /**
   * The units and count of each query's count_agg / sum_agg / max_agg metric over [from, to), from
   * the buckets' partials (their edge hours from their events): the numbers the pricing library's
   * aggregation gives over eventsOfMany's events, without reading every event.
   */
  unitsOfMany(queries: ReadonlyArray<PeriodQuery & { metric: BillableMetric }>): Promise<FastUnits[]>;
}

const byTimeThenTransaction = (a: UsageEventRecord, b: UsageEventRecord) =>
  a.timestamp.getTime() - b.timestamp.getTime() ||
  (a.transaction_id < b.transaction_id ? -1 : a.transaction_id > b.transaction_id ? 1 : 0);

/** Stored events of a period from the buckets' pages: every read is by `_id`. */
export function storedUsageReader(c: UsageCollections): StoredUsageReader {
  const eventsOfMany = async (queries: readonly PeriodQuery[]): Promise<UsageEventRecord[][]> => {
    const ranges = queries.map((q) => ({
      series: { org: q.organizationId, sub: q.externalSubscriptionId, code: q.code },
      fromMs: q.from.getTime(),
      toMs: q.to.getTime(),
    }));
    const pageLists = await readPagesOfMany(c, await bucketsOfRanges(c, ranges));
    return pageLists.map((pages, i) => {
      const { series, fromMs, toMs } = ranges[i]!;
      const out: UsageEventRecord[] = [];
      for (const page of pages) {
        for (const e of page.events) {
          const t = Date.parse(e.timestamp);
          if (t >= fromMs && t < toMs) out.push(toUsageEventRecord(e, { org: series.org, batch: page.batch }));
        }
      }
      return out.sort(byTimeThenTransaction);
    });
  };
  return {
    eventsOfMany,
    unitsOfMany: (queries) =>
      fastAggregateMany(
        c,
        queries.map((q) => ({
          metric: q.metric,
          series: { org: q.organizationId, sub: q.externalSubscriptionId, code: q.code },
          fromMs: q.from.getTime(),
          toMs: q.to.getTime(),
        })),
      ),
    events: async (query) => (await eventsOfMany([query]))[0]!,
  };
}
