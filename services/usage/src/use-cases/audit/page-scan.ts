import type { UsageEvent } from "@billing/pricing";
import type { EventView } from "../../domain/stored-event";

/**
 * One stored event read from its page's JSON text for the audit: the event as stored (its text),
 * with what every audit needs decoded (timestamp, acknowledgement, message) and the rest decoded
 * only when asked — `properties` is parsed from its slice of the text the first time a charge
 * reads it (a count charge without filters never does), `transaction_id` likewise.
 */
export class PageEvent implements UsageEvent {
  private props: Record<string, unknown> | undefined;
  private tx: string | undefined;

  constructor(
    /** the page's text, or the event's own text */
    private readonly text: string,
    /** where its properties object and its transaction id (a JSON string, quotes included) are in `text` */
    private readonly propsAt: number,
    private readonly propsEnd: number,
    private readonly txAt: number,
    private readonly txEnd: number,
    /** its svc_id, code, external subscription id and precise total (parsed when a late event is listed) */
    private readonly rest: () => Omit<EventView, "properties" | "transaction_id" | "timestamp" | "created_at">,
    /** timestamp, Unix ms */
    readonly timestamp: number,
    /** acknowledged at (business time), Unix ms */
    readonly created: number,
    /** the ingest stream sequence of the message that carried it */
    readonly seq: number,
    /** its position in that message (-1: a page written before positions were kept) */
    public pos: number,
    /** precise_total_amount_cents, as stored */
    readonly precise_total_amount_cents: string | null,
  ) {}

  get properties(): Record<string, unknown> {
    return (this.props ??= JSON.parse(this.text.slice(this.propsAt, this.propsEnd)) as Record<string, unknown>);
  }

  get transaction_id(): string {
    return (this.tx ??= JSON.parse(this.text.slice(this.txAt, this.txEnd)) as string);
  }

  /** Lago's EventObject as stored (a late event's listing). */
  view(): EventView {
    return {
      ...this.rest(), transaction_id: this.transaction_id, timestamp: new Date(this.timestamp).toISOString(), properties: this.properties,
      created_at: new Date(this.created).toISOString(),
    } as EventView;
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

function parsedWhole(text: string, at: number, end: number, seq: number, pos: number): PageEvent {
  const e = JSON.parse(text.slice(at, end)) as EventView;
  const own = JSON.stringify({ p: e.properties ?? {}, x: e.transaction_id });
  // `{"p":` is 5 characters; the transaction id follows `,"x":`
  const propsEnd = compositeEnd(own, 5);
  return new PageEvent(
    own, 5, propsEnd, propsEnd + 5, own.length - 1,
    () => ({ svc_id: e.svc_id, svc_customer_id: null, svc_subscription_id: null, code: e.code, external_subscription_id: e.external_subscription_id, precise_total_amount_cents: e.precise_total_amount_cents ?? null }),
    Date.parse(e.timestamp), Date.parse(e.created_at), seq, pos, e.precise_total_amount_cents ?? null,
  );
}

/** One event's text at `at` (its `{`): the event, and where its text ends. */
function scanEvent(text: string, at: number, seq: number, pos: number): { event: PageEvent; end: number } {
  if (!text.startsWith(HEAD, at) || !text.startsWith(TX, at + HEAD.length + 36)) {
    const end = compositeEnd(text, at);
    return { event: parsedWhole(text, at, end, seq, pos), end };
  }
  const txAt = at + HEAD.length + 36 + TX.length;
  const txEnd = stringEnd(text, txAt);
  const codeAt = txEnd + CODE.length;
  if (!text.startsWith(CODE, txEnd)) return fallback(text, at, seq, pos);
  const codeEnd = stringEnd(text, codeAt);
  if (!text.startsWith(TS, codeEnd) || !text.startsWith(SUB, codeEnd + TS.length + 24)) return fallback(text, at, seq, pos);
  const timestamp = Date.parse(text.slice(codeEnd + TS.length, codeEnd + TS.length + 24));
  const subAt = codeEnd + TS.length + 24 + SUB.length;
  const subEnd = stringEnd(text, subAt);
  if (!text.startsWith(PRECISE, subEnd)) return fallback(text, at, seq, pos);
  const preciseAt = subEnd + PRECISE.length;
  const preciseEnd = text.charCodeAt(preciseAt) === QUOTE ? stringEnd(text, preciseAt) : preciseAt + 4; // a string, or null
  if (!text.startsWith(PROPS, preciseEnd)) return fallback(text, at, seq, pos);
  const propsAt = preciseEnd + PROPS.length;
  const propsEnd = compositeEnd(text, propsAt);
  if (!text.startsWith(CREATED, propsEnd) || text.charCodeAt(propsEnd + CREATED.length + 25) !== CLOSE_BRACE) return fallback(text, at, seq, pos);
  const created = Date.parse(text.slice(propsEnd + CREATED.length, propsEnd + CREATED.length + 24));
  if (Number.isNaN(timestamp) || Number.isNaN(created)) return fallback(text, at, seq, pos);
  const precise = text.charCodeAt(preciseAt) === QUOTE ? (JSON.parse(text.slice(preciseAt, preciseEnd)) as string) : null;
  const rest = () => ({
    svc_id: text.slice(at + HEAD.length, at + HEAD.length + 36), svc_customer_id: null, svc_subscription_id: null,
    code: JSON.parse(text.slice(codeAt, codeEnd)) as string, external_subscription_id: JSON.parse(text.slice(subAt, subEnd)) as string,
    precise_total_amount_cents: precise,
  });
  const event = new PageEvent(text, propsAt, propsEnd, txAt, txEnd, rest, timestamp, created, seq, pos, precise);
  return { event, end: propsEnd + CREATED.length + 26 };
}

function fallback(text: string, at: number, seq: number, pos: number) {
  const end = compositeEnd(text, at);
  return { event: parsedWhole(text, at, end, seq, pos), end };
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
