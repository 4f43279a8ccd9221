import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import { MAX_ENDPOINTS_PER_ORGANIZATION, type WebhookEndpoint } from "../../domain/webhook-endpoint";
import { newStandardSecret } from "../../domain/webhook-signing";
import type { WebhookDeps } from "./deps";
import { checkedEndpointInput, type EndpointInput } from "./endpoint-input";

/** Lago's POST /webhook_endpoints: 422 for a refused URL, an unknown type, a URL the organization already has, or an eleventh endpoint. */
export async function createWebhookEndpoint(
  deps: WebhookDeps,
  organizationId: string,
  input: EndpointInput,
): Promise<WebhookEndpoint> {
  const checked = checkedEndpointInput(input, deps.allowPrivate);
  if ((await deps.webhooks.countEndpoints(organizationId)) >= MAX_ENDPOINTS_PER_ORGANIZATION)
    throw AppError.validation({ base: ["webhook_endpoints_limit_reached"] });
  const now = deps.clock.now();
  const endpoint: WebhookEndpoint = {
    id: randomUUID(),
    organization_id: organizationId,
    ...checked,
    signing_secret: checked.signature_algo === "standard" ? newStandardSecret() : null,
    created_at: now,
    updated_at: now,
  };
  if ((await deps.webhooks.insertEndpoint(endpoint)) === "duplicate_url")
    throw AppError.validation({ webhook_url: ["value_already_exist"] });
  deps.directory.changed(organizationId, endpoint.id);
  return endpoint;
}
