import { AppError } from "@billing/errors";
import type { WebhookDelivery } from "../../domain/webhook-delivery";
import type { WebhookDeps } from "./deps";

export async function getWebhook(deps: WebhookDeps, organizationId: string, id: string): Promise<WebhookDelivery> {
  const delivery = await deps.webhooks.findDelivery(organizationId, id);
  if (!delivery) throw AppError.notFound("webhook");
  return delivery;
}
