import type { UsageEventRecord } from "./usage-event";

/**
 * An event as the ingest message carries it and as an event page stores it (short keys: the
 * pages hold every event once more and are read in bulk). Organization, subscription and code
 * are the page's bucket; `s` is the ingest message's stream sequence.
 */
export interface PageEvent {
  /** svc_id */
  i: string;
  /** transaction_id */
  x: string;
  /** timestamp, Unix ms (sub-millisecond decimals kept) */
  t: number;
  /** properties as sent (keys with `.` or `$` survive: pages store them as JSON text) */
  p: Record<string, unknown> | null;
  /** precise_total_amount_cents */
  a: string | null;
  /** created_at, Unix ms */
  r: number;
  /** stream sequence of the ingest message that carried it */
  s: number;
}

/** An event read from an ingest message: a page event plus where it belongs. */
export interface IngestRecord extends PageEvent {
  org: string;
  sub: string;
  code: string;
  /** the ingest message's batch id */
  batch: string;
}

export function toUsageEventRecord(e: PageEvent, where: { org: string; sub: string; code: string; batch: string }): UsageEventRecord {
  return {
    svc_id: e.i,
    organization_id: where.org,
    external_subscription_id: where.sub,
    transaction_id: e.x,
    code: where.code,
    timestamp: new Date(e.t),
    properties: (e.p ?? {}) as UsageEventRecord["properties"],
    precise_total_amount_cents: e.a,
    batch_id: where.batch,
    created_at: new Date(e.r),
  };
}
