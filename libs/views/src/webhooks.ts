import type { PaymentMessages as M } from "@billing/contracts";
import { jsonObject, type webhookEndpointObject, type webhookObject, type ViewOf } from "./schemas";

/** Lago's WebhookEndpointObject (`event_types` null: every type); a `standard` endpoint also shows its Standard Webhooks secret. */
export function presentWebhookEndpoint(e: M.WebhookEndpoint__Output) {
  return {
    svc_id: e.svc_id,
    svc_organization_id: e.svc_organization_id,
    webhook_url: e.webhook_url,
    signature_algo: e.signature_algo,
    name: e.name ?? null,
    event_types: e.has_event_types ? e.event_types : null,
    created_at: e.created_at,
    ...(e.signing_secret ? { signing_secret: e.signing_secret } : {}),
  } satisfies ViewOf<typeof webhookEndpointObject>;
}

/** One delivery of the log: its state, and the payload exactly as sent. */
export function presentWebhook(w: M.Webhook__Output) {
  return {
    svc_id: w.svc_id,
    svc_webhook_endpoint_id: w.svc_webhook_endpoint_id,
    endpoint: w.endpoint,
    webhook_type: w.webhook_type,
    object_type: w.object_type,
    object_id: w.object_id ?? null,
    status: w.status,
    retries: w.retries,
    http_status: w.http_status ?? null,
    response: w.response ?? null,
    // the body as it was sent (a JSON object, built by the service's fan-out), shown as that object
    payload: jsonObject.parse(JSON.parse(w.payload_json)),
    last_retried_at: w.last_retried_at ?? null,
    next_attempt_at: w.next_attempt_at ?? null,
    created_at: w.created_at,
    updated_at: w.updated_at,
  } satisfies ViewOf<typeof webhookObject>;
}
