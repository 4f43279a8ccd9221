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
