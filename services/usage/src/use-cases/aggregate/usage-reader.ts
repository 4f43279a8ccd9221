import { toUsageEventRecord } from "../../domain/stored-event";
import type { PeriodQuery, UsageEventRecord, UsageReader } from "../../domain/usage-event";
import type { UsageCollections } from "../../persistence/collections";
import { bucketsInRange, readPages } from "./bucket-reader";

/** Stored events of a period from the buckets' pages: every read is by `_id`. */
export function storedUsageReader(c: UsageCollections): UsageReader {
  return {
    async events(query: PeriodQuery): Promise<UsageEventRecord[]> {
      const fromMs = query.from.getTime();
      const toMs = query.to.getTime();
      const where = { org: query.organizationId, sub: query.externalSubscriptionId, code: query.code };
      const { whole, edge } = await bucketsInRange(c, where, fromMs, toMs);
      const out: UsageEventRecord[] = [];
      for (const page of await readPages(c, [...whole, ...edge])) {
        for (const e of page.events) {
          const t = Date.parse(e.timestamp);
          if (t >= fromMs && t < toMs) out.push(toUsageEventRecord(e, { org: where.org, batch: page.batch }));
        }
      }
      return out.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || (a.transaction_id < b.transaction_id ? -1 : a.transaction_id > b.transaction_id ? 1 : 0));
    },
  };
}
