import { AppError } from "@billing/errors";
import type { WebhookEndpoint } from "../../domain/webhook-endpoint";
import { newStandardSecret } from "../../domain/webhook-signing";
import type { WebhookDeps } from "./deps";
import { checkedEndpointInput, type EndpointInput } from "./endpoint-input";

/** Lago's PUT /webhook_endpoints/{id}: the endpoint as sent (a move to `standard` gets a secret; one that stays keeps it). */
export async function updateWebhookEndpoint(
  deps: WebhookDeps,
  organizationId: string,
  id: string,
  input: EndpointInput,
): Promise<WebhookEndpoint> {
  const checked = checkedEndpointInput(input, deps.allowPrivate);
  const current = await deps.webhooks.findEndpoint(organizationId, id);
  if (!current) throw AppError.notFound("webhook_endpoint");
  const updated: WebhookEndpoint = {
    ...current,
    ...checked,
    updated_at: deps.clock.now(),
    signing_secret: checked.signature_algo === "standard" ? (current.signing_secret ?? newStandardSecret()) : null,
  };
  const outcome = await deps.webhooks.replaceEndpoint(updated);
  if (outcome === "duplicate_url") throw AppError.validation({ webhook_url: ["value_already_exist"] });
  if (outcome === "missing") throw AppError.notFound("webhook_endpoint");
  deps.directory.changed(organizationId, id);
  return updated;
}
