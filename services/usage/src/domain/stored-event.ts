import type { UsageEventRecord } from "./usage-event";

/**
 * A stored event as JSON, Lago's EventObject: the same text in the API's answer, the ingest
 * message, its bucket's page and the `billing.usage.event.ingested` envelope — written once, when
 * the event is accepted, and never serialized again (answers, pages and envelopes join these
 * texts). svc_customer_id and svc_subscription_id are null, as in Lago's create responses.
 */
export interface EventView {
  svc_id: string;
  transaction_id: string;
  svc_customer_id: null;
  svc_subscription_id: null;
  external_subscription_id: string;
  code: string;
  /** ISO 8601 with milliseconds */
  timestamp: string;
  properties: Record<string, unknown>;
  precise_total_amount_cents: string | null;
  created_at: string;
}

/**
 * Reading stored event texts back (ingest messages, pages): the texts are ours, written by
 * `eventText`, and read on the hottest paths (storage, aggregation, audits), so they are checked
 * by these guards (a few `typeof` per event) rather than a schema: what fails them is refused as
 * the malformed text it is (a SyntaxError, as JSON.parse's own).
 */
const isText = (v: unknown): v is string => typeof v === "string";

/** A JSON object (an event's properties: the customer's own object, whatever its keys and values). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function malformed(what: string): never {
  throw new SyntaxError(`stored event: ${what} expected`);
}

/** A stored event text, parsed → the EventView it is (else a SyntaxError). */
export function eventViewOf(value: unknown): EventView {
  if (!isJsonObject(value)) malformed("an event object");
  const e = value;
  if (
    !isText(e.transaction_id) ||
    !isText(e.external_subscription_id) ||
    !isText(e.code) ||
    !isText(e.timestamp) ||
    !isText(e.created_at)
  ) {
    malformed("transaction_id, external_subscription_id, code, timestamp and created_at texts");
  }
  // a text written before svc_ids were kept has none: ""
  if (e.svc_id !== undefined && e.svc_id !== null && !isText(e.svc_id)) malformed("an svc_id text");
  if (e.properties !== undefined && e.properties !== null && !isJsonObject(e.properties))
    malformed("a properties object");
  if (
    e.precise_total_amount_cents !== undefined &&
    e.precise_total_amount_cents !== null &&
    !isText(e.precise_total_amount_cents)
  )
    malformed("a precise_total_amount_cents text");
  return {
    svc_id: e.svc_id ?? "",
    transaction_id: e.transaction_id,
    svc_customer_id: null,
    svc_subscription_id: null,
    external_subscription_id: e.external_subscription_id,
    code: e.code,
    timestamp: e.timestamp,
    properties: e.properties ?? {},
    precise_total_amount_cents: e.precise_total_amount_cents ?? null,
    created_at: e.created_at,
  };
}

/** An event read from an ingest message, with what storing it needs. */
export interface IngestRecord {
  org: string;
  sub: string;
  /** transaction_id */
  x: string;
  code: string;
  /** timestamp, Unix ms */
  t: number;
  properties: Record<string, unknown>;
  /** the event's JSON text (an EventView) */
  raw: string;
  /** stream sequence and batch id of the ingest message */
  s: number;
  batch: string;
  /**
   * its position in the ingest message (the order it was acknowledged, and the order its
   * `billing.usage.event.ingested` envelope lists it): kept in its page, so that the audit replays
   * a message's events of different hours in the order the pay-in-advance fees were priced
   */
  i?: number;
}

export function toUsageEventRecord(e: EventView, where: { org: string; batch: string }): UsageEventRecord {
  return {
    svc_id: e.svc_id,
    organization_id: where.org,
    external_subscription_id: e.external_subscription_id,
    transaction_id: e.transaction_id,
    code: e.code,
    timestamp: new Date(e.timestamp),
    properties: e.properties as UsageEventRecord["properties"],
    precise_total_amount_cents: e.precise_total_amount_cents,
    batch_id: where.batch,
    created_at: new Date(e.created_at),
  };
}
