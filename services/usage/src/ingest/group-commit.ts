import { randomUUID } from "node:crypto";
import { encodeMessage } from "../domain/ingest-message";

interface Waiting<R> {
  line: string;
  bytes: number;
  records: R[];
  resolve(): void;
  reject(err: unknown): void;
}

export interface Publisher<R> {
  /** Publishes one ingest message; resolves once JetStream acknowledged it. */
  publish(data: Uint8Array, batchId: string): Promise<void>;
  /** Called before the publish with every request's records (to keep them for storage). */
  keep?(batchId: string, records: R[]): void;
}

/**
 * Group commit: every request's lines join the next JetStream message. A message leaves at once
 * when fewer than `maxFlushes` are being published; requests arriving meanwhile wait for a slot
 * and leave together. So one request alone is published immediately, and under load a message
 * carries everything that arrived during the previous publish (no timer, no per-event publish).
 */
export class GroupCommit<R = unknown> {
  private queue: Waiting<R>[] = [];
  private flushing = 0;

  constructor(
    private readonly publisher: Publisher<R>,
    private readonly options: { maxFlushes: number; maxBytes: number },
  ) {}

  /** Resolves once JetStream acknowledged the message holding these lines. */
  submit(line: string, records: R[] = []): Promise<void> {
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > this.options.maxBytes - 64) return Promise.reject(new RangeError("request larger than an ingest message"));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, bytes, records, resolve, reject });
      if (this.flushing < this.options.maxFlushes) this.flush();
    });
  }

  private flush(): void {
    const taken: Waiting<R>[] = [];
    let bytes = 64;
    while (this.queue.length > 0 && bytes + this.queue[0]!.bytes <= this.options.maxBytes) {
      const next = this.queue.shift()!;
      bytes += next.bytes;
      taken.push(next);
    }
    if (taken.length === 0) return;
    this.flushing++;
    const batchId = randomUUID();
    const data = Buffer.from(encodeMessage(batchId, taken.map((w) => w.line)));
    this.publisher.keep?.(batchId, taken.flatMap((w) => w.records));
    this.publisher
      .publish(data, batchId)
      .then(
        () => taken.forEach((w) => w.resolve()),
        (err: unknown) => taken.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        this.flushing--;
        if (this.queue.length > 0) this.flush();
      });
  }
}
