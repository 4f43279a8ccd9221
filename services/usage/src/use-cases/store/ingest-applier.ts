import type { JsMsg } from "nats";
import type { Logger } from "@billing/logger";
import { realTime } from "../../domain/real-time";
import type { IngestRecord } from "../../domain/stored-event";
import { applyUnit, type StoreDeps } from "./apply-unit";
import type { IngestCursor } from "./ingest-cursor";
import type { LocalBatches } from "./local-batches";
import { messageRecords, type MessageSource } from "./message-records";

export interface ApplierOptions {
  stream: string;
  subject: string;
  cursor: IngestCursor;
  logger: Logger;
  /** Most events applied at once (a unit). */
  unitEvents: number;
  /** A unit of few messages waits until this long after the previous unit (0: never waits). */
  lingerMs: number;
  local: LocalBatches;
  purgeEveryMs?: number;
  /**
   * True while storage should give the CPU to ingestion (requests are arriving, the backlog is
   * still small and young): storage then waits and catches up once ingestion pauses. Told how long
   * the oldest message waiting for storage has waited (ms). Never asked while someone waits for
   * storage (appliedThrough).
   */
  yieldToIngest?: (oldestWaitMs: number) => boolean;
}

/** How often a yielding storage looks again whether ingestion has paused. */
const YIELD_POLL_MS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stores the ingest stream's messages in stream order: an ordered consumer reads their headers
 * from the cursor on (the events themselves are in memory when this process published them, else
 * read by sequence); whatever arrived while a unit was being stored forms the next unit. A unit that fails is
 * tried again (never skipped: messages must be applied in order). The cursor advances after each
 * unit, and messages behind it are purged from the stream.
 */
export class IngestApplier {
  /** messages to store, in stream order, with when storage learned of each (real time, ms) */
  private buffer: { seq: number; batchId: string | undefined; at: number }[] = [];
  private readonly source: MessageSource;
  private wake: (() => void) | null = null;
  private resume: (() => void) | null = null;
  private appliedSeq = 0;
  private waiters: { seq: number; resolve(): void }[] = [];
  private stopped = false;
  private applying: Promise<void> = Promise.resolve();
  private lastUnitAt = 0;

  constructor(
    private readonly deps: StoreDeps,
    private readonly options: ApplierOptions,
  ) {
    this.source = { jsm: deps.bus.jsm, stream: options.stream, local: options.local, logger: options.logger };
  }

  async start(): Promise<void> {
    this.appliedSeq = await this.options.cursor.read();
    // an ordered consumer from the message after the cursor (start sequence policy)
    const consumer = await this.deps.bus.js.consumers.get(this.options.stream, {
      filterSubjects: [this.options.subject],
      opt_start_seq: this.appliedSeq + 1,
      headers_only: true,
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
      this.buffer.push({ seq: msg.seq, batchId: msg.headers?.get("Nats-Msg-Id") || undefined, at: realTime() });
      this.wake?.();
      // backpressure: stop reading while storage is far behind
      if (this.buffer.length > 4096) await new Promise<void>((r) => (this.resume = r));
      if (this.stopped) break;
    }
  }

  private async takeUnit(): Promise<{ records: IngestRecord[]; lastSeq: number }> {
    const records: IngestRecord[] = [];
    let lastSeq = 0;
    while (this.buffer.length > 0 && (records.length === 0 || records.length < this.options.unitEvents)) {
      const { seq, batchId } = this.buffer[0]!;
      for (const r of await messageRecords(this.source, seq, batchId)) records.push(r);
      this.buffer.shift();
      lastSeq = seq;
    }
    if (this.buffer.length < 1024) this.resume?.();
    return { records, lastSeq };
  }

  private async applyLoop(): Promise<void> {
    while (!this.stopped) {
      if (this.buffer.length === 0) {
        await new Promise<void>((r) => (this.wake = r));
        this.wake = null;
        continue;
      }
      // ingestion is busy and the backlog small and young: let it have the CPU (storage catches up after)
      if (this.waiters.length === 0 && this.options.yieldToIngest?.(realTime() - this.buffer[0]!.at)) {
        await sleep(YIELD_POLL_MS);
        continue;
      }
      // a unit of few messages right after the last one: let more arrive (fewer, fuller bucket writes)
      if (
        this.buffer.length < 16 &&
        this.options.lingerMs > 0 &&
        performance.now() - this.lastUnitAt < this.options.lingerMs
      ) {
        await sleep(this.options.lingerMs - (performance.now() - this.lastUnitAt));
      }
      let unit: { records: IngestRecord[]; lastSeq: number };
      try {
        unit = await this.takeUnit();
      } catch (err) {
        this.options.logger.warn({ err }, "reading ingest messages failed; retrying");
        await sleep(500);
        continue;
      }
      for (let attempt = 1; !this.stopped; attempt++) {
        try {
          const started = performance.now();
          const stored = await applyUnit(this.deps, unit.records, unit.lastSeq);
          await this.options.cursor.advance(unit.lastSeq);
          this.options.logger.debug(
            {
              events: unit.records.length,
              stored,
              last_seq: unit.lastSeq,
              ms: Math.round(performance.now() - started),
            },
            "ingest unit stored",
          );
          break;
        } catch (err) {
          this.options.logger.warn(
            { err, last_seq: unit.lastSeq, attempt },
            "storing ingest messages failed; retrying",
          );
          await sleep(Math.min(5000, 200 * attempt));
        }
      }
      if (this.stopped) return;
      this.lastUnitAt = performance.now();
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
