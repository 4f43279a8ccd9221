import type { UsageEvent } from "@billing/pricing";
import { eventText } from "../../domain/ingest-message";
import type { EventView } from "../../domain/stored-event";

/**
 * One stored event read from its page's JSON text for the audit: the event as stored (its text,
 * in the shape `eventText` writes), with its timestamp, message and place decoded, and the rest
 * decoded only when read — `properties` is parsed from its slice of the text the first time a
 * charge reads it (a count charge without filters never does); the transaction id, the
 * acknowledgement instant and the whole event likewise. Few fields per event: an audit holds
 * a million of them.
 */
export class PageEvent implements UsageEvent {
  private props: Record<string, unknown> | undefined;
  private tx: string | undefined;

  constructor(
    /** the page's text (or an event's canonical text) */
    private readonly text: string,
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
    return (this.props ??= JSON.parse(this.text.slice(this.propsAt, this.propsEnd)) as Record<string, unknown>);
  }

  get transaction_id(): string {
    if (this.tx === undefined) {
      const txAt = this.at + TX_AT;
      this.tx = JSON.parse(this.text.slice(txAt, stringEnd(this.text, txAt))) as string;
    }
    return this.tx;
  }

  /** acknowledged at (business time), Unix ms */
  get created(): number {
    return isoMs(this.text, this.propsEnd + CREATED.length);
  }

  /** precise_total_amount_cents, as stored (a decimal string, or null) */
  get precise_total_amount_cents(): string | null {
    const end = this.propsAt - PROPS.length;
    if (this.text.charCodeAt(end - 1) !== QUOTE) return null;
    return this.text.slice(this.text.lastIndexOf('"', end - 2) + 1, end - 1);
  }

  /** Lago's EventObject as stored (a late event's listing). */
  view(): EventView {
    return JSON.parse(this.text.slice(this.at, this.propsEnd + CREATED.length + 26)) as EventView;
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** The index just after the JSON string starting (with its quote) at `at`. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q === -1) throw new SyntaxError("unterminated string");
    let slashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** The index just after the JSON object or array starting at `at` (strings skipped whole). */
function compositeEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  throw new SyntaxError("unterminated object");
}

/**
 * The fixed shape `eventText` (domain/ingest-message.ts) writes every stored event in. An event of
 * another shape is parsed whole (JSON.parse), so a page of any age reads the same.
 */
const HEAD = '{"svc_id":"';
const TX = '","transaction_id":';
const CODE = ',"svc_customer_id":null,"code":';
const TS = ',"timestamp":"';
const SUB = '","svc_subscription_id":null,"external_subscription_id":';
const PRECISE = ',"precise_total_amount_cents":';
const PROPS = ',"properties":';
const CREATED = ',"created_at":"';

const TX_AT = HEAD.length + 36 + TX.length;

/** "YYYY-MM-DDTHH:MM:SS.mmmZ" at `i` → Unix ms, without a string per event (another form: Date.parse). */
function isoMs(text: string, i: number): number {
  const d = (k: number) => text.charCodeAt(i + k) - 48;
  const year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3);
  if (year < 100 || text.charCodeAt(i + 4) !== 45 || text.charCodeAt(i + 10) !== 84 || text.charCodeAt(i + 19) !== 46 || text.charCodeAt(i + 23) !== 90) {
    return Date.parse(text.slice(i, i + 24));
  }
  return Date.UTC(year, d(5) * 10 + d(6) - 1, d(8) * 10 + d(9), d(11) * 10 + d(12), d(14) * 10 + d(15), d(17) * 10 + d(18), d(20) * 100 + d(21) * 10 + d(22));
}

/**
 * An event of another shape (written before `eventText`, or by hand): parsed whole, then read from
 * its canonical text (svc_id cut or padded to the shape's 36 characters; `view()` answers the event as stored).
 */
function parsedWhole(text: string, at: number, end: number, seq: number, pos: number): PageEvent {
  const e = JSON.parse(text.slice(at, end)) as EventView;
  const canonical = eventText({
    svcId: String(e.svc_id ?? "").padEnd(36).slice(0, 36), transactionId: e.transaction_id, externalSubscriptionId: e.external_subscription_id, code: e.code,
    timestamp: new Date(e.timestamp).toISOString(), propertiesJson: JSON.stringify(e.properties ?? {}), preciseTotalAmountCents: e.precise_total_amount_cents ?? null,
    createdAt: new Date(e.created_at).toISOString(),
  });
  const scanned = scanCanonical(canonical, 0, seq, pos);
  if (!scanned) throw new SyntaxError(`event page: an event that cannot be read at ${at}`);
  const event = scanned.event;
  event.view = () => ({ ...e, properties: e.properties ?? {} });
  return event;
}

/** One event's text at `at` (its `{`): the event, and where its text ends. */
function scanEvent(text: string, at: number, seq: number, pos: number): { event: PageEvent; end: number } {
  const scanned = scanCanonical(text, at, seq, pos);
  if (scanned) return scanned;
  const end = compositeEnd(text, at);
  return { event: parsedWhole(text, at, end, seq, pos), end };
}

/** An event in `eventText`'s shape at `at`, or null (another shape). */
function scanCanonical(text: string, at: number, seq: number, pos: number): { event: PageEvent; end: number } | null {
  if (!text.startsWith(HEAD, at) || !text.startsWith(TX, at + HEAD.length + 36)) return null;
  const txEnd = stringEnd(text, at + TX_AT);
  if (!text.startsWith(CODE, txEnd)) return null;
  const codeEnd = stringEnd(text, txEnd + CODE.length);
  if (!text.startsWith(TS, codeEnd) || !text.startsWith(SUB, codeEnd + TS.length + 24)) return null;
  const timestamp = isoMs(text, codeEnd + TS.length);
  const subEnd = stringEnd(text, codeEnd + TS.length + 24 + SUB.length);
  if (!text.startsWith(PRECISE, subEnd)) return null;
  const preciseAt = subEnd + PRECISE.length;
  const preciseEnd = text.charCodeAt(preciseAt) === QUOTE ? stringEnd(text, preciseAt) : preciseAt + 4; // a string, or null
  if (!text.startsWith(PROPS, preciseEnd)) return null;
  const propsAt = preciseEnd + PROPS.length;
  const propsEnd = compositeEnd(text, propsAt);
  if (!text.startsWith(CREATED, propsEnd) || text.charCodeAt(propsEnd + CREATED.length + 25) !== CLOSE_BRACE || Number.isNaN(timestamp)) return null;
  return { event: new PageEvent(text, at, propsAt, propsEnd, timestamp, seq, pos), end: propsEnd + CREATED.length + 26 };
}

const skipSpace = (text: string, i: number) => {
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  return i;
};

function expect(text: string, i: number, code: number): number {
  i = skipSpace(text, i);
  if (text.charCodeAt(i) !== code) throw new SyntaxError(`event page: '${String.fromCharCode(code)}' expected at ${i}`);
  return i + 1;
}

/**
 * The events of a page's text, `[[seq, [event, …], [position, …]?], …]` (bucket-writes.ts), in
 * page order, each passed to `visit` — without JSON.parse of the whole page: the events' texts are
 * walked in the shape `eventText` writes them, and the fields read as they are needed (any other
 * shape is parsed whole, so older pages read alike). `keep(timestampMs)`: false drops the event
 * (outside the period) before its properties are parsed.
 */
export function scanPage(text: string, keep: (timestamp: number) => boolean, visit: (e: PageEvent) => void): void {
  let i = expect(text, 0, OPEN_BRACKET);
  i = skipSpace(text, i);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return;
  for (;;) {
    i = expect(text, i, OPEN_BRACKET);
    const seqEnd = text.indexOf(",", i);
    const seq = Number(text.slice(i, seqEnd));
    i = expect(text, seqEnd + 1, OPEN_BRACKET);
    const events: PageEvent[] = [];
    i = skipSpace(text, i);
    if (text.charCodeAt(i) === CLOSE_BRACKET) i++;
    else {
      for (;;) {
        i = skipSpace(text, i);
        const { event, end } = scanEvent(text, i, seq, -1);
        events.push(event);
        i = skipSpace(text, end);
        const c = text.charCodeAt(i++);
        if (c === CLOSE_BRACKET) break;
        if (c !== 44) throw new SyntaxError(`event page: ',' or ']' expected at ${i - 1}`);
      }
    }
    i = skipSpace(text, i);
    let positions: number[] | null = null;
    if (text.charCodeAt(i) === 44) {
      const at = skipSpace(text, i + 1);
      const end = compositeEnd(text, at);
      positions = JSON.parse(text.slice(at, end)) as number[];
      i = end;
    }
    i = expect(text, i, CLOSE_BRACKET);
    for (let k = 0; k < events.length; k++) {
      const e = events[k]!;
      if (positions && positions.length === events.length) e.pos = positions[k]!;
      if (keep(e.timestamp)) visit(e);
    }
    i = skipSpace(text, i);
    const c = text.charCodeAt(i++);
    if (c === CLOSE_BRACKET) return;
    if (c !== 44) throw new SyntaxError(`event page: ',' or ']' expected at ${i - 1}`);
  }
}
