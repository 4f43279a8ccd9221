import { realTime, type RealTime } from "../../domain/real-time";
import type { PeriodQuery, UsageEventRecord, UsageReader } from "../../domain/usage-event";

export interface CachedUsageOptions {
  /** How long a read answers again before it is refreshed; 0 = no cache. */
  ttlMs: number;
  /** Most periods kept (the least recently read go first). */
  maxEntries: number;
  /** Real time (the cache's age is not business time). */
  now?: RealTime;
}

interface Entry {
  at: number;
  events: Promise<UsageEventRecord[]>;
  /** The last read that succeeded: answered while a newer one is under way. */
  ready?: UsageEventRecord[];
  refreshing?: boolean;
}

/**
 * Stored usage for estimates: a period read once is answered from memory; after `ttlMs` the
 * next request still gets that answer while one new read refreshes it in the background, and
 * concurrent reads of the same period share one query. An estimate may thus miss events stored
 * in the last `ttlMs` plus one read (stored usage already lags ingestion by the store's delay).
 * The arrays returned are shared: callers must not change them.
 */
export class CachedUsageReader implements UsageReader {
  private readonly entries = new Map<string, Entry>();
  private readonly now: RealTime;

  constructor(
    private readonly reader: UsageReader,
    private readonly options: CachedUsageOptions,
  ) {
    this.now = options.now ?? realTime;
  }

  events(query: PeriodQuery): Promise<UsageEventRecord[]> {
    if (this.options.ttlMs <= 0) return this.reader.events(query);
    const key = JSON.stringify([
      query.organizationId,
      query.externalSubscriptionId,
      query.code,
      query.from.getTime(),
      query.to.getTime(),
    ]);
    const now = this.now();
    const entry = this.entries.get(key);
    if (!entry) return this.read(key, query, now).events;
    // Most recently read last: the least recently read are at the front when evicting.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (now - entry.at < this.options.ttlMs) return entry.events;
    if (!entry.ready) return entry.events;
    if (!entry.refreshing) {
      entry.refreshing = true;
      const next = this.reader.events(query);
      next.then(
        (events) =>
          this.entries.get(key) === entry && this.entries.set(key, { at: this.now(), events: next, ready: events }),
        () => (entry.refreshing = false),
      );
    }
    return Promise.resolve(entry.ready);
  }

  private read(key: string, query: PeriodQuery, now: number): Entry {
    const entry: Entry = { at: now, events: this.reader.events(query) };
    entry.events.then(
      (events) => (entry.ready = events),
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries) break;
      this.entries.delete(oldest);
    }
    return entry;
  }
}
