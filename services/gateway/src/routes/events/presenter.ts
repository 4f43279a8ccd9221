import type { ValidEvent } from "./validators";

/** IngestEvents' IngestedEvent (proto). */
export interface IngestedEvent {
  svc_id: string;
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp: string;
  properties_json: string;
  precise_total_amount_cents?: string;
  created_at: string;
}

const str = JSON.stringify;

/**
 * Lago's EventObject as JSON text, written directly: the properties are already JSON (the usage
 * service sends them back only when an expression changed them; else they are the ones sent),
 * so they are embedded, never parsed again. svc_id and the ISO instants need no escaping.
 * svc_customer_id is null in create responses (Lago enriches asynchronously), and so is
 * svc_subscription_id.
 */
export function eventJson(e: IngestedEvent, sent: ValidEvent): string {
  return (
    `{"svc_id":"${e.svc_id}","transaction_id":${str(e.transaction_id)},"svc_customer_id":null,"code":${str(e.code)},` +
    `"timestamp":"${e.timestamp}","svc_subscription_id":null,"external_subscription_id":${str(e.external_subscription_id)},` +
    `"precise_total_amount_cents":${e.precise_total_amount_cents === undefined ? "null" : str(e.precise_total_amount_cents)},` +
    `"properties":${e.properties_json || sent.properties_json || "{}"},"created_at":"${e.created_at}"}`
  );
}

export const eventResponse = (e: IngestedEvent, sent: ValidEvent) => `{"event":${eventJson(e, sent)}}`;

export const eventsResponse = (events: readonly IngestedEvent[], sent: readonly ValidEvent[]) =>
  `{"events":[${events.map((e, i) => eventJson(e, sent[i]!)).join(",")}]}`;
