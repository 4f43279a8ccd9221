import { AppError } from "@billing/errors";
import type { WebhookEndpoint } from "../../domain/webhook-endpoint";
import type { WebhookDeps } from "./deps";

export async function getWebhookEndpoint(
  deps: WebhookDeps,
  organizationId: string,
  id: string,
): Promise<WebhookEndpoint> {
  const endpoint = await deps.webhooks.findEndpoint(organizationId, id);
  if (!endpoint) throw AppError.notFound("webhook_endpoint");
  return endpoint;
}
