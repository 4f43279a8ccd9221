import { derivedUuid, envelopeSchema, organizationHeaders, Subjects, type Bus } from "@billing/bus";
import type { IngestRecord } from "../domain/stored-event";

/** Events per envelope: keeps each well under NATS's default 1 MB max_payload. */
const PER_ENVELOPE = 1000;
const EVENTS = '"__EVENTS__"';

export interface IngestedEnvelope {
  id: string;
  organizationId: string;
  /** the envelope's JSON text */
  text: string;
}

/**
 * `billing.usage.event.ingested`, the shared envelope with `data: {batch_id, events}`: per stored
 * ingest message and organization, its stored events (in chunks of 1000), ids derived from the
 * batch id so a redelivery publishes nothing new. The envelope's head is validated like every
 * envelope; the events are the stored JSON texts, joined.
 */
export function ingestedEnvelopes(records: readonly IngestRecord[], occurredAt: Date): IngestedEnvelope[] {
  const groups = new Map<string, IngestRecord[]>();
  for (const r of records) {
    const id = `${r.batch}|${r.org}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = []));
    group.push(r);
  }
  const envelopes: IngestedEnvelope[] = [];
  for (const [name, events] of groups) {
    for (let i = 0; i < events.length; i += PER_ENVELOPE) {
      const chunk = events.slice(i, i + PER_ENVELOPE);
      const head = envelopeSchema.parse({
        id: derivedUuid(`${name}|${i / PER_ENVELOPE}`),
        type: Subjects.usage.eventIngested,
        version: 1,
        organization_id: chunk[0]!.org,
        occurred_at: occurredAt.toISOString(),
        correlation_id: null,
        data: { batch_id: chunk[0]!.batch, events: "__EVENTS__" },
      });
      const text = JSON.stringify(head).replace(EVENTS, `[${chunk.map((e) => e.raw).join(",")}]`);
      envelopes.push({ id: head.id, organizationId: head.organization_id, text });
    }
  }
  return envelopes;
}

/**
 * Publishes a stored unit's `ingested` envelopes (msgID = envelope id: the usage stream keeps one
 * copy of a redelivered batch's envelopes), each with its organization in the header every
 * envelope carries (a consumer with nothing to do for that organization acknowledges it undecoded).
 */
export async function publishIngested(bus: Bus, records: readonly IngestRecord[], occurredAt: Date): Promise<void> {
  await Promise.all(
    ingestedEnvelopes(records, occurredAt).map((e) =>
      bus.js.publish(Subjects.usage.eventIngested, Buffer.from(e.text), {
        msgID: e.id,
        headers: organizationHeaders(e.organizationId),
      }),
    ),
  );
}
