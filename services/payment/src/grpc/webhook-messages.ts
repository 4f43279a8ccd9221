import type { PaymentMessages as M } from "@billing/contracts";
import type { Nullable } from "@billing/grpc";
import type { WebhookDelivery } from "../domain/webhook-delivery";
import type { WebhookEndpoint } from "../domain/webhook-endpoint";
import type { EndpointInput } from "../use-cases/webhooks/endpoint-input";

/** Lago's WebhookEndpointObject (and, for a `standard` endpoint, its secret). */
export function webhookEndpointMessage(e: WebhookEndpoint): Nullable<M.WebhookEndpoint> {
  return {
    svc_id: e.id,
    svc_organization_id: e.organization_id,
    webhook_url: e.webhook_url,
    signature_algo: e.signature_algo,
    name: e.name,
    event_types: e.event_types ?? [],
    has_event_types: e.event_types !== null,
    created_at: e.created_at.toISOString(),
    signing_secret: e.signing_secret,
  };
}

export const endpointInputOf = (i: M.WebhookEndpointInput__Output | null): EndpointInput => ({
  webhook_url: i?.webhook_url ?? "",
  signature_algo: i?.signature_algo ?? null,
  name: i?.name ?? null,
  event_types: i?.has_event_types ? i.event_types : null,
});

/** One delivery in the log. */
export function webhookMessage(d: WebhookDelivery): Nullable<M.Webhook> {
  return {
    svc_id: d.id,
    svc_webhook_endpoint_id: d.endpoint_id,
    endpoint: d.endpoint,
    webhook_type: d.webhook_type,
    object_type: d.object_type,
    object_id: d.object_id,
    status: d.status,
    retries: d.retries,
    http_status: d.http_status,
    response: d.response,
    payload_json: d.payload,
    last_retried_at: d.last_retried_at?.toISOString() ?? null,
    next_attempt_at: d.status === "pending" ? (d.next_attempt_at?.toISOString() ?? null) : null,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
  };
}
