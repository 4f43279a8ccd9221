import { randomUUID } from "node:crypto";
import { encodeMessage } from "../domain/ingest-message";

interface Waiting {
  line: string;
  bytes: number;
  resolve(): void;
  reject(err: unknown): void;
}

export type PublishMessage = (data: Uint8Array, batchId: string) => Promise<void>;

/**
 * Group commit: every request's line joins the next JetStream message. A message leaves at once
 * when fewer than `maxFlushes` are being published; requests arriving meanwhile wait for a slot
 * and leave together. So one request alone is published immediately, and under load a message
 * carries everything that arrived during the previous publish (no timer, no per-event publish).
 */
export class GroupCommit {
  private queue: Waiting[] = [];
  private flushing = 0;

  constructor(
    private readonly publish: PublishMessage,
    private readonly options: { maxFlushes: number; maxBytes: number },
  ) {}

  /** Resolves once JetStream acknowledged the message holding this line. */
  submit(line: string): Promise<void> {
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > this.options.maxBytes - 64) return Promise.reject(new RangeError("request larger than an ingest message"));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line, bytes, resolve, reject });
      if (this.flushing < this.options.maxFlushes) this.flush();
    });
  }

  private flush(): void {
    const taken: Waiting[] = [];
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
    this.publish(data, batchId).then(
      () => taken.forEach((w) => w.resolve()),
      (err: unknown) => taken.forEach((w) => w.reject(err)),
    ).finally(() => {
      this.flushing--;
      if (this.queue.length > 0) this.flush();
    });
  }

  get waiting(): number {
    return this.queue.length;
  }
}
