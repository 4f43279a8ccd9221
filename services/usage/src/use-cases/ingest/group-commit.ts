import { randomUUID } from "node:crypto";
import { encodeMessage } from "../../domain/ingest-message";

interface Waiting {
  line: string;
  bytes: number;
  events: number;
  resolve(): void;
  reject(err: unknown): void;
}

export interface Publisher {
  /** Publishes one ingest message; resolves once JetStream acknowledged it. */
  publish(data: Uint8Array, batchId: string): Promise<void>;
  /** Called before the publish with the message (storage keeps it rather than read it back). */
  keep?(batchId: string, data: Uint8Array, events: number): void;
}

/**
 * Group commit: every request's lines join the next JetStream message. A message leaves on the
 * next turn of the event loop when fewer than `maxFlushes` are being published (so the requests of
 * one call, and of calls that arrived together, travel together); requests arriving meanwhile
 * wait for a slot and leave together. No timer, no per-event publish.
 */
export class GroupCommit {
  private queue: Waiting[] = [];
  private flushing = 0;
  private scheduled = false;

  constructor(
    private readonly publisher: Publisher,
    private readonly options: { maxFlushes: number; maxBytes: number },
  ) {}

  /** Resolves once JetStream acknowledged the message holding these lines (`events` of them). */
  submit(line: string, events: number): Promise<void> {
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > this.options.maxBytes - 64)
      return Promise.reject(new RangeError("request larger than an ingest message"));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, bytes, events, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing >= this.options.maxFlushes || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    const taken: Waiting[] = [];
    let bytes = 64;
    let events = 0;
    while (this.queue.length > 0 && bytes + this.queue[0]!.bytes <= this.options.maxBytes) {
      const next = this.queue.shift()!;
      bytes += next.bytes;
      events += next.events;
      taken.push(next);
    }
    if (taken.length === 0) return;
    this.flushing++;
    const batchId = randomUUID();
    const data = Buffer.from(
      encodeMessage(
        batchId,
        taken.map((w) => w.line),
      ),
    );
    this.publisher.keep?.(batchId, data, events);
    this.publisher
      .publish(data, batchId)
      .then(
        () => taken.forEach((w) => w.resolve()),
        (err: unknown) => taken.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        this.flushing--;
        this.schedule();
      });
  }
}
