import type { ValidEvent } from "./validators";

/**
 * IngestEvents' compact reply (IngestEventsResponse with compact_reply): only what the gateway
 * does not have — the events' svc_id, created_at, and the properties an expression changed.
 */
export interface IngestReply {
  created_at: string;
  /** the events' svc_id (UUIDs, 36 characters each) concatenated in order */
  svc_ids: string;
  /** by event index (proto map: keys are strings) */
  changed_properties_json: Record<string, string>;
}

/** One event of a reply. */
export interface IngestedRef {
  reply: IngestReply;
  index: number;
}

const str = JSON.stringify;
const UUID_LENGTH = 36;

/**
 * Lago's EventObject as JSON text, written directly from the event sent and the reply: the
 * properties are already JSON (the usage service sends them back only when an expression changed
 * them), so they are embedded, never parsed again; the timestamp is the one sent (Unix ms → ISO
 * 8601 with milliseconds, as the usage service stores it) or else the reception time, created_at.
 * svc_id and the ISO instants need no escaping. svc_customer_id is null in create responses
 * (Lago enriches asynchronously), and so is svc_subscription_id.
 */
export function eventJson({ reply, index }: IngestedRef, sent: ValidEvent): string {
  const svcId = reply.svc_ids.slice(index * UUID_LENGTH, (index + 1) * UUID_LENGTH);
  const timestamp = sent.timestamp_ms === undefined ? reply.created_at : new Date(sent.timestamp_ms).toISOString();
  return (
    `{"svc_id":"${svcId}","transaction_id":${str(sent.transaction_id)},"svc_customer_id":null,"code":${str(sent.code)},` +
    `"timestamp":"${timestamp}","svc_subscription_id":null,"external_subscription_id":${str(sent.external_subscription_id)},` +
    `"precise_total_amount_cents":${sent.precise_total_amount_cents === undefined ? "null" : str(sent.precise_total_amount_cents)},` +
    `"properties":${reply.changed_properties_json[index] || sent.properties_json || "{}"},"created_at":"${reply.created_at}"}`
  );
}

export const eventResponse = (event: IngestedRef, sent: ValidEvent) => `{"event":${eventJson(event, sent)}}`;

export function eventsResponse(reply: IngestReply, sent: readonly ValidEvent[]): string {
  const parts: string[] = new Array(sent.length);
  for (let index = 0; index < sent.length; index++) parts[index] = eventJson({ reply, index }, sent[index]!);
  return `{"events":[${parts.join(",")}]}`;
}
