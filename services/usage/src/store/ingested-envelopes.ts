import { createHash } from "node:crypto";
import { makeEnvelope, Subjects, type Envelope } from "@billing/bus";
import type { IngestRecord } from "../domain/stored-event";

/** Events per envelope: keeps each well under NATS's default 1 MB max_payload. */
const PER_ENVELOPE = 1000;

/** A UUID (version 5 layout) derived from a name: a redelivered batch yields the same envelope ids. */
export function derivedUuid(name: string): string {
  const h = createHash("sha1").update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export interface IngestedEventView {
  svc_id: string;
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp: string;
  properties: Record<string, unknown>;
  precise_total_amount_cents: string | null;
  created_at: string;
}

const view = (e: IngestRecord): IngestedEventView => ({
  svc_id: e.i,
  transaction_id: e.x,
  external_subscription_id: e.sub,
  code: e.code,
  timestamp: new Date(e.t).toISOString(),
  properties: e.p ?? {},
  precise_total_amount_cents: e.a,
  created_at: new Date(e.r).toISOString(),
});

/**
 * `billing.usage.event.ingested`: per stored ingest message and organization, its stored events
 * (in chunks of 1000), ids derived from the batch id so a redelivery publishes nothing new.
 */
export function ingestedEnvelopes(records: readonly IngestRecord[], occurredAt: Date): Envelope[] {
  const groups = new Map<string, IngestRecord[]>();
  for (const r of records) {
    const id = `${r.batch}|${r.org}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = []));
    group.push(r);
  }
  const envelopes: Envelope[] = [];
  for (const [id, events] of groups) {
    for (let i = 0; i < events.length; i += PER_ENVELOPE) {
      const chunk = events.slice(i, i + PER_ENVELOPE);
      envelopes.push(
        makeEnvelope({
          id: derivedUuid(`${id}|${i / PER_ENVELOPE}`),
          type: Subjects.usage.eventIngested,
          organizationId: chunk[0]!.org,
          occurredAt,
          data: { batch_id: chunk[0]!.batch, events: chunk.map(view) },
        }),
      );
    }
  }
  return envelopes;
}
