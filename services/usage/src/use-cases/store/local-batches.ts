import { realTime, type RealTime } from "../../domain/real-time";

/**
 * The ingest messages this process published, by batch id, kept (as the bytes published) until
 * storage reaches them: storage then reads only the messages' headers from the stream. A message
 * not found here (after a restart, another replica's, or beyond the cap) is read from the stream.
 * Either way storage decodes the same bytes.
 */
export class LocalBatches {
  private readonly batches = new Map<string, { data: Uint8Array; events: number; at: number }>();
  private events = 0;

  constructor(
    private readonly maxEvents: number,
    private readonly now: RealTime = realTime,
  ) {}

  /** Keeps a message about to be published (false: over the cap, not kept). */
  add(batchId: string, data: Uint8Array, events: number): boolean {
    if (this.events + events > this.maxEvents) return false;
    this.batches.set(batchId, { data, events, at: this.now() });
    this.events += events;
    return true;
  }

  take(batchId: string): Uint8Array | undefined {
    const entry = this.batches.get(batchId);
    if (!entry) return undefined;
    this.batches.delete(batchId);
    this.events -= entry.events;
    return entry.data;
  }

  /** Forgets what storage never asked for (a failed publish, a message stored elsewhere), kept longer than `maxAgeMs` of real time. */
  sweep(maxAgeMs: number): void {
    const oldest = this.now() - maxAgeMs;
    for (const [id, entry] of this.batches) if (entry.at < oldest) this.take(id);
  }
}
