import { eventViewOf, isJsonObject, type IngestRecord } from "./stored-event";

/**
 * The JetStream ingest message, in lines: `{"b": batch id}`, then per ingest request a line
 * `@<organization id>` followed by one line per event, the event's JSON (an EventView). A request
 * is encoded once, when it arrives; a group commit only joins lines.
 */
export interface EventLine {
  svcId: string;
  transactionId: string;
  externalSubscriptionId: string;
  code: string;
  /** ISO 8601 with milliseconds */
  timestamp: string;
  /** a JSON object's text, or null for {} */
  propertiesJson: string | null;
  preciseTotalAmountCents: string | null;
  createdAt: string;
}

const str = JSON.stringify;

/**
 * An event's JSON text (EventView, which is Lago's EventObject): the API's answer, the ingest
 * message's line, the page's and the envelope's entry. svc_id and the ISO instants need no escaping.
 */
export function eventText(e: EventLine): string {
  return (
    `{"svc_id":"${e.svcId}","transaction_id":${str(e.transactionId)},"svc_customer_id":null,"code":${str(e.code)},` +
    `"timestamp":"${e.timestamp}","svc_subscription_id":null,"external_subscription_id":${str(e.externalSubscriptionId)},` +
    `"precise_total_amount_cents":${e.preciseTotalAmountCents === null ? "null" : str(e.preciseTotalAmountCents)},` +
    `"properties":${e.propertiesJson ?? "{}"},"created_at":"${e.createdAt}"}`
  );
}

/** A request's lines: `@organization`, then the events' texts. */
export function encodeRequestLines(organizationId: string, eventTexts: readonly string[]): string {
  return `@${organizationId}\n${eventTexts.join("\n")}`;
}

export function encodeMessage(batchId: string, requests: readonly string[]): string {
  return `{"b":${str(batchId)}}\n${requests.join("\n")}`;
}

/** The message's first line, parsed → its batch id (else a SyntaxError). */
function batchOf(value: unknown): string {
  if (!isJsonObject(value) || typeof value.b !== "string")
    throw new SyntaxError('ingest message: {"b": batch id} expected first');
  return value.b;
}

/** The events of one ingest message, in the order they were acknowledged; `onBadLine` for a line that does not parse. */
export function decodeMessage(
  text: string,
  seq: number,
  onBadLine: (line: number, err: unknown) => void = () => {},
): { batch: string; events: IngestRecord[] } {
  const lines = text.split("\n");
  const batch = batchOf(JSON.parse(lines[0]!));
  const events: IngestRecord[] = [];
  let org = "";
  for (let l = 1; l < lines.length; l++) {
    const raw = lines[l]!;
    if (raw.charCodeAt(0) === 64 /* @ */) {
      org = raw.slice(1);
      continue;
    }
    try {
      const w = eventViewOf(JSON.parse(raw));
      events.push({
        org,
        sub: w.external_subscription_id,
        x: w.transaction_id,
        code: w.code,
        t: Date.parse(w.timestamp),
        properties: w.properties,
        raw,
        s: seq,
        batch,
        i: events.length,
      });
    } catch (err) {
      onBadLine(l, err);
    }
  }
  return { batch, events };
}
