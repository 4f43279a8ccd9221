import type { IngestRecord } from "../domain/stored-event";

/**
 * The records of the ingest messages this process published, by batch id, kept until storage
 * reaches them: storage then reads only the messages' headers from the stream and parses
 * nothing. A message not found here (after a restart, another replica's, or beyond the cap) is
 * fetched from the stream and parsed.
 */
export class LocalBatches {
  private readonly batches = new Map<string, { records: IngestRecord[]; at: number }>();
  private events = 0;

  constructor(private readonly maxEvents: number) {}

  /** Keeps the records of a message about to be published (false: over the cap, not kept). */
  add(batchId: string, records: IngestRecord[], nowMs: number): boolean {
    if (this.events + records.length > this.maxEvents) return false;
    this.batches.set(batchId, { records, at: nowMs });
    this.events += records.length;
    return true;
  }

  take(batchId: string): IngestRecord[] | undefined {
    const entry = this.batches.get(batchId);
    if (!entry) return undefined;
    this.batches.delete(batchId);
    this.events -= entry.records.length;
    return entry.records;
  }

  /** Forgets what storage never asked for (a failed publish, a message stored elsewhere). */
  sweep(olderThanMs: number): void {
    for (const [id, entry] of this.batches) if (entry.at < olderThanMs) this.take(id);
  }
}
