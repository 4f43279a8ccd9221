import type { JsMsg } from "nats";
import type { Logger } from "@billing/logger";
import { decodeMessage } from "../domain/ingest-message";
import type { IngestRecord } from "../domain/stored-event";
import { applyUnit, type StoreDeps } from "./apply-unit";
import type { IngestCursor } from "./ingest-cursor";

export interface ApplierOptions {
  stream: string;
  subject: string;
  cursor: IngestCursor;
  logger: Logger;
  /** Most events applied at once (a unit). */
  unitEvents: number;
  purgeEveryMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stores the ingest stream's messages in stream order: an ordered consumer reads from the cursor
 * on; whatever arrived while a unit was being stored forms the next unit. A unit that fails is
 * tried again (never skipped: messages must be applied in order). The cursor advances after each
 * unit, and messages behind it are purged from the stream.
 */
export class IngestApplier {
  private buffer: { seq: number; data: Uint8Array }[] = [];
  private bufferedBytes = 0;
  private wake: (() => void) | null = null;
  private resume: (() => void) | null = null;
  private appliedSeq = 0;
  private waiters: { seq: number; resolve(): void }[] = [];
  private stopped = false;
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly deps: StoreDeps, private readonly options: ApplierOptions) {}

  async start(): Promise<void> {
    this.appliedSeq = await this.options.cursor.read();
    // an ordered consumer from the message after the cursor (start sequence policy)
    const consumer = await this.deps.bus.js.consumers.get(this.options.stream, {
      filterSubjects: [this.options.subject],
      opt_start_seq: this.appliedSeq + 1,
    });
    const messages = await consumer.consume({ max_messages: 256 });
    void this.read(messages);
    void this.purgeLoop();
    this.applying = this.applyLoop();
    this.stopMessages = () => messages.stop();
  }

  private stopMessages = () => {};

  /** Resolves once every message up to `seq` is stored. */
  appliedThrough(seq: number): Promise<void> {
    if (this.appliedSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  get applied(): number {
    return this.appliedSeq;
  }

  private async read(messages: AsyncIterable<JsMsg>): Promise<void> {
    for await (const msg of messages) {
      if (msg.seq <= this.appliedSeq) continue;
      this.buffer.push({ seq: msg.seq, data: msg.data });
      this.bufferedBytes += msg.data.length;
      this.wake?.();
      // backpressure: stop reading while storage is far behind
      if (this.bufferedBytes > 64 * 1024 * 1024) await new Promise<void>((r) => (this.resume = r));
      if (this.stopped) break;
    }
  }

  private takeUnit(): { records: IngestRecord[]; lastSeq: number } {
    const records: IngestRecord[] = [];
    let lastSeq = 0;
    while (this.buffer.length > 0 && (records.length === 0 || records.length < this.options.unitEvents)) {
      const { seq, data } = this.buffer.shift()!;
      this.bufferedBytes -= data.length;
      try {
        const text = Buffer.from(data.buffer, data.byteOffset, data.length).toString("utf8");
        const onBadLine = (line: number, err: unknown) => this.options.logger.error({ err, seq, line }, "undecodable event skipped");
        for (const r of decodeMessage(text, seq, onBadLine).events) records.push(r);
      } catch (err) {
        this.options.logger.error({ err, seq }, "undecodable ingest message skipped");
      }
      lastSeq = seq;
    }
    if (this.bufferedBytes < 16 * 1024 * 1024) this.resume?.();
    return { records, lastSeq };
  }

  private async applyLoop(): Promise<void> {
    while (!this.stopped) {
      if (this.buffer.length === 0) {
        await new Promise<void>((r) => (this.wake = r));
        this.wake = null;
        continue;
      }
      const unit = this.takeUnit();
      for (let attempt = 1; !this.stopped; attempt++) {
        try {
          const started = performance.now();
          const stored = await applyUnit(this.deps, unit.records, unit.lastSeq);
          await this.options.cursor.advance(unit.lastSeq);
          this.options.logger.debug({ events: unit.records.length, stored, last_seq: unit.lastSeq, ms: Math.round(performance.now() - started) }, "ingest unit stored");
          break;
        } catch (err) {
          this.options.logger.warn({ err, last_seq: unit.lastSeq, attempt }, "storing ingest messages failed; retrying");
          await sleep(Math.min(5000, 200 * attempt));
        }
      }
      if (this.stopped) return;
      this.appliedSeq = unit.lastSeq;
      this.waiters = this.waiters.filter((w) => (w.seq <= this.appliedSeq ? (w.resolve(), false) : true));
    }
  }

  private async purgeLoop(): Promise<void> {
    let purged = 0;
    while (!this.stopped) {
      await sleep(this.options.purgeEveryMs ?? 5000);
      if (this.appliedSeq <= purged) continue;
      const upTo = this.appliedSeq;
      await this.deps.bus.jsm.streams
        .purge(this.options.stream, { filter: this.options.subject, seq: upTo + 1 })
        .then(() => (purged = upTo))
        .catch((err: unknown) => this.options.logger.warn({ err }, "ingest stream purge failed"));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopMessages();
    this.wake?.();
    this.resume?.();
    // let the unit being stored finish (it is idempotent, but a clean stop needs no redo)
    await Promise.race([this.applying, sleep(5000)]);
  }
}
