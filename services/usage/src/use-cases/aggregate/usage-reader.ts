import { toUsageEventRecord } from "../../domain/stored-event";
import type { PeriodQuery, UsageEventRecord, UsageReader } from "../../domain/usage-event";
import type { UsageCollections } from "../../persistence/collections";
import { bucketsOfRanges, readPagesOfMany } from "./bucket-reader";

/** Stored usage, one query or many at once. */
export interface StoredUsageReader extends UsageReader {
  /** The events of each query, in its order: three reads for all of them (a billing batch, a customer's charges). */
  eventsOfMany(queries: readonly PeriodQuery[]): Promise<UsageEventRecord[][]>;
}

const byTimeThenTransaction = (a: UsageEventRecord, b: UsageEventRecord) =>
  a.timestamp.getTime() - b.timestamp.getTime() || (a.transaction_id < b.transaction_id ? -1 : a.transaction_id > b.transaction_id ? 1 : 0);

/** Stored events of a period from the buckets' pages: every read is by `_id`. */
export function storedUsageReader(c: UsageCollections): StoredUsageReader {
  const eventsOfMany = async (queries: readonly PeriodQuery[]): Promise<UsageEventRecord[][]> => {
    const ranges = queries.map((q) => ({
      series: { org: q.organizationId, sub: q.externalSubscriptionId, code: q.code }, fromMs: q.from.getTime(), toMs: q.to.getTime(),
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
    events: async (query) => (await eventsOfMany([query]))[0]!,
  };
}
