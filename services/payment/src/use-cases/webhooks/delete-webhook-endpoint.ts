import { AppError } from "@billing/errors";
import type { WebhookEndpoint } from "../../domain/webhook-endpoint";
import type { WebhookDeps } from "./deps";

/** Lago's DELETE /webhook_endpoints/{id}: answers the endpoint deleted; its pending deliveries are given up. */
export async function deleteWebhookEndpoint(
  deps: WebhookDeps,
  organizationId: string,
  id: string,
): Promise<WebhookEndpoint> {
  const current = await deps.webhooks.findEndpoint(organizationId, id);
  if (!current || !(await deps.webhooks.deleteEndpoint(organizationId, id)))
    throw AppError.notFound("webhook_endpoint");
  deps.directory.changed(organizationId, id);
  return current;
}
