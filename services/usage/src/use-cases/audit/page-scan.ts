import type { UsageEvent } from "@billing/pricing";
import { eventText } from "../../domain/ingest-message";
import { eventViewOf, isJsonObject, type EventView } from "../../domain/stored-event";

/**
 * One stored event read from its page's JSON text for the audit, as UTF-8 bytes (the page document
 * as the driver received it: raw BSON, never decoded into a JS string whole): the event's text as
 * stored, with its timestamp, message and place decoded, and the rest decoded only when read —
 * `properties` is parsed from its slice of the bytes the first time a charge reads it (a count
 * charge without filters never does); the transaction id, the acknowledgement instant and the
 * whole event likewise. Few fields per event: an audit holds a million of them.
 */
export class PageEvent implements UsageEvent {
  private props: Record<string, unknown> | undefined;
  private tx: string | undefined;

  constructor(
    /** the page's bytes (or an event's canonical text's) */
    private readonly bytes: Buffer,
    /** where the event's text starts, and its properties object */
    private readonly at: number,
    private readonly propsAt: number,
    private readonly propsEnd: number,
    /** timestamp, Unix ms */
    readonly timestamp: number,
    /** the ingest stream sequence of the message that carried it */
    readonly seq: number,
    /** its position in that message (-1: a page written before positions were kept) */
    public pos: number,
  ) {}

  get properties(): Record<string, unknown> {
    return (this.props ??= propertiesOf(JSON.parse(utf8(this.bytes, this.propsAt, this.propsEnd))));
  }

  get transaction_id(): string {
    if (this.tx === undefined) {
      const txAt = this.at + TX_AT;
      const tx: unknown = JSON.parse(utf8(this.bytes, txAt, stringEnd(this.bytes, txAt)));
      if (typeof tx !== "string") throw new SyntaxError("event page: a transaction_id text expected");
      this.tx = tx;
    }
    return this.tx;
  }

  /** acknowledged at (business time), Unix ms */
  get created(): number {
    return isoMs(this.bytes, this.propsEnd + CREATED.length);
  }

  /** precise_total_amount_cents, as stored (a decimal string, or null) */
  get precise_total_amount_cents(): string | null {
    const end = this.propsAt - PROPS.length;
    if (this.bytes[end - 1] !== QUOTE) return null;
    let start = end - 2;
    while (this.bytes[start] !== QUOTE) start--;
    return utf8(this.bytes, start + 1, end - 1);
  }

  /** Lago's EventObject as stored (a late event's listing). */
  view(): EventView {
    return eventViewOf(JSON.parse(utf8(this.bytes, this.at, this.propsEnd + CREATED.length + 26)));
  }
}

/** An event's properties, parsed: the customer's JSON object (else a SyntaxError). */
function propertiesOf(value: unknown): Record<string, unknown> {
  if (!isJsonObject(value)) throw new SyntaxError("event page: a properties object expected");
  return value;
}

/** A page's positions, parsed: one integer per event (else a SyntaxError). */
function positionsOf(value: unknown): number[] {
  if (!Array.isArray(value) || !value.every((p) => Number.isInteger(p)))
    throw new SyntaxError("event page: positions expected");
  return value;
}

const utf8 = (bytes: Buffer, start: number, end: number) => bytes.toString("utf8", start, end);
const encoded = (s: string) => Buffer.from(s, "utf8");

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** The index just after the JSON string starting (with its quote) at `at`. A UTF-8 sequence never holds an ASCII byte: bytes are walked as they are. */
function stringEnd(b: Buffer, at: number): number {
  for (let i = at + 1; i < b.length; i++) {
    const c = b[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  throw new SyntaxError("event page: unterminated string");
}

/** The index just after the JSON object or array starting at `at` (strings skipped whole). */
function compositeEnd(b: Buffer, at: number): number {
  let depth = 0;
  for (let i = at; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) i = stringEnd(b, i) - 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  throw new SyntaxError("event page: unterminated object");
}

function startsWith(b: Buffer, at: number, pattern: Buffer): boolean {
  if (at + pattern.length > b.length) return false;
  for (let k = 0; k < pattern.length; k++) if (b[at + k] !== pattern[k]) return false;
  return true;
}

/**
 * The fixed shape `eventText` (domain/ingest-message.ts) writes every stored event in. An event of
 * another shape is parsed whole (JSON.parse), so a page of any age reads the same.
 */
const HEAD = encoded('{"svc_id":"');
const TX = encoded('","transaction_id":');
const CODE = encoded(',"svc_customer_id":null,"code":');
const TS = encoded(',"timestamp":"');
const SUB = encoded('","svc_subscription_id":null,"external_subscription_id":');
const PRECISE = encoded(',"precise_total_amount_cents":');
const PROPS = encoded(',"properties":');
const CREATED = encoded(',"created_at":"');
const TX_AT = HEAD.length + 36 + TX.length;

/** "YYYY-MM-DDTHH:MM:SS.mmmZ" at `i` → Unix ms, without a string per event (another form: Date.parse). */
function isoMs(b: Buffer, i: number): number {
  const d = (k: number) => b[i + k]! - 48;
  const year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3);
  if (year < 100 || b[i + 4] !== 45 || b[i + 10] !== 84 || b[i + 19] !== 46 || b[i + 23] !== 90)
    return Date.parse(utf8(b, i, i + 24));
  return Date.UTC(
    year,
    d(5) * 10 + d(6) - 1,
    d(8) * 10 + d(9),
    d(11) * 10 + d(12),
    d(14) * 10 + d(15),
    d(17) * 10 + d(18),
    d(20) * 100 + d(21) * 10 + d(22),
  );
}

/**
 * An event of another shape (written before `eventText`, or by hand): parsed whole, then read from
 * its canonical text (svc_id cut or padded to the shape's 36 characters; `view()` answers the event as stored).
 */
function parsedWhole(b: Buffer, at: number, end: number, seq: number, pos: number): PageEvent {
  const e = eventViewOf(JSON.parse(utf8(b, at, end)));
  const canonical = encoded(
    eventText({
      svcId: String(e.svc_id ?? "")
        .padEnd(36)
        .slice(0, 36),
      transactionId: e.transaction_id,
      externalSubscriptionId: e.external_subscription_id,
      code: e.code,
      timestamp: new Date(e.timestamp).toISOString(),
      propertiesJson: JSON.stringify(e.properties ?? {}),
      preciseTotalAmountCents: e.precise_total_amount_cents ?? null,
      createdAt: new Date(e.created_at).toISOString(),
    }),
  );
  const event = scanCanonical(canonical, 0, seq, pos);
  if (!event) throw new SyntaxError(`event page: an event that cannot be read at ${at}`);
  event.view = () => ({ ...e, properties: e.properties ?? {} });
  return event;
}

/** Where the last event scanned ends (no object per event to answer it). */
let scannedEnd = 0;

/** One event's text at `at` (its `{`): the event; `scannedEnd`: where its text ends. */
function scanEvent(b: Buffer, at: number, seq: number, pos: number): PageEvent {
  const scanned = scanCanonical(b, at, seq, pos);
  if (scanned) return scanned;
  const end = compositeEnd(b, at);
  const event = parsedWhole(b, at, end, seq, pos);
  scannedEnd = end;
  return event;
}

/** An event in `eventText`'s shape at `at` (`scannedEnd`: where it ends), or null (another shape). */
function scanCanonical(b: Buffer, at: number, seq: number, pos: number): PageEvent | null {
  if (!startsWith(b, at, HEAD) || !startsWith(b, at + HEAD.length + 36, TX)) return null;
  const txEnd = stringEnd(b, at + TX_AT);
  if (!startsWith(b, txEnd, CODE)) return null;
  const codeEnd = stringEnd(b, txEnd + CODE.length);
  if (!startsWith(b, codeEnd, TS) || !startsWith(b, codeEnd + TS.length + 24, SUB)) return null;
  const timestamp = isoMs(b, codeEnd + TS.length);
  const subEnd = stringEnd(b, codeEnd + TS.length + 24 + SUB.length);
  if (!startsWith(b, subEnd, PRECISE)) return null;
  const preciseAt = subEnd + PRECISE.length;
  const preciseEnd = b[preciseAt] === QUOTE ? stringEnd(b, preciseAt) : preciseAt + 4; // a string, or null
  if (!startsWith(b, preciseEnd, PROPS)) return null;
  const propsAt = preciseEnd + PROPS.length;
  const propsEnd = compositeEnd(b, propsAt);
  if (!startsWith(b, propsEnd, CREATED) || b[propsEnd + CREATED.length + 25] !== CLOSE_BRACE || Number.isNaN(timestamp))
    return null;
  scannedEnd = propsEnd + CREATED.length + 26;
  return new PageEvent(b, at, propsAt, propsEnd, timestamp, seq, pos);
}

const skipSpace = (b: Buffer, i: number) => {
  while (i < b.length && b[i]! <= 32) i++;
  return i;
};

function expect(b: Buffer, i: number, code: number): number {
  i = skipSpace(b, i);
  if (b[i] !== code) throw new SyntaxError(`event page: '${String.fromCharCode(code)}' expected at ${i}`);
  return i + 1;
}

/**
 * The events of a page's JSON text as UTF-8 bytes, `[[seq, [event, …], [position, …]?], …]`
 * (bucket-writes.ts), in page order, each passed to `visit` — without decoding or parsing the
 * whole page: the events' texts are walked in the shape `eventText` writes them, and the fields
 * read as they are needed (any other shape is parsed whole, so older pages read alike).
 */
export function scanPage(page: Uint8Array | string, visit: (e: PageEvent) => void): void {
  const b =
    typeof page === "string"
      ? encoded(page)
      : Buffer.isBuffer(page)
        ? page
        : Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  let i = expect(b, 0, OPEN_BRACKET);
  i = skipSpace(b, i);
  if (b[i] === CLOSE_BRACKET) return;
  for (;;) {
    i = expect(b, i, OPEN_BRACKET);
    const seqAt = skipSpace(b, i);
    let seqEnd = seqAt;
    while (b[seqEnd] !== COMMA && seqEnd < b.length) seqEnd++;
    const seq = Number(utf8(b, seqAt, seqEnd));
    i = expect(b, seqEnd + 1, OPEN_BRACKET);
    const events: PageEvent[] = [];
    i = skipSpace(b, i);
    if (b[i] === CLOSE_BRACKET) i++;
    else {
      for (;;) {
        i = skipSpace(b, i);
        events.push(scanEvent(b, i, seq, -1));
        i = skipSpace(b, scannedEnd);
        const c = b[i++];
        if (c === CLOSE_BRACKET) break;
        if (c !== COMMA) throw new SyntaxError(`event page: ',' or ']' expected at ${i - 1}`);
      }
    }
    i = skipSpace(b, i);
    let positions: number[] | null = null;
    if (b[i] === COMMA) {
      const at = skipSpace(b, i + 1);
      const end = compositeEnd(b, at);
      positions = positionsOf(JSON.parse(utf8(b, at, end)));
      i = end;
    }
    i = expect(b, i, CLOSE_BRACKET);
    const withPositions = positions !== null && positions.length === events.length;
    for (let k = 0; k < events.length; k++) {
      const e = events[k]!;
      if (withPositions) e.pos = positions![k]!;
      visit(e);
    }
    i = skipSpace(b, i);
    const c = b[i++];
    if (c === CLOSE_BRACKET) return;
    if (c !== COMMA) throw new SyntaxError(`event page: ',' or ']' expected at ${i - 1}`);
  }
}

/**
 * A page document as the driver answers it with `raw: true` (its BSON bytes): its `_id` and the
 * bytes of its `e` (the page's JSON text, UTF-8), without decoding the text into a string.
 */
export function rawPage(doc: Buffer): { id: string; e: Buffer } {
  const view = new DataView(doc.buffer, doc.byteOffset, doc.byteLength);
  const size = view.getInt32(0, true);
  let i = 4;
  let id: string | null = null;
  let e: Buffer | null = null;
  while (i < size - 1) {
    const type = doc[i++];
    const nameEnd = doc.indexOf(0, i);
    const name = utf8(doc, i, nameEnd);
    i = nameEnd + 1;
    if (type !== 2) throw new SyntaxError(`event page document: field ${name} of BSON type ${type}`);
    const length = view.getInt32(i, true);
    if (name === "_id") id = utf8(doc, i + 4, i + 4 + length - 1);
    else if (name === "e") e = doc.subarray(i + 4, i + 4 + length - 1);
    i += 4 + length;
  }
  if (id === null || e === null) throw new SyntaxError("event page document without _id or e");
  return { id, e };
}
