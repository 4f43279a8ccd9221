import { AppError } from "@billing/errors";
import type { WebhookDelivery } from "../../domain/webhook-delivery";
import type { WebhookDeps } from "./deps";

/**
 * POST /webhooks/{id}/retry: sends a delivery again now, the same payload under the same unique
 * key (a receiver that already processed it recognizes it). One this process is already sending
 * or waiting to retry is left to its course.
 */
export async function retryWebhook(deps: WebhookDeps, organizationId: string, id: string): Promise<WebhookDelivery> {
  const current = await deps.webhooks.findDelivery(organizationId, id);
  if (!current) throw AppError.notFound("webhook");
  if (deps.dispatcher.holds(id)) return current;
  const now = new Date();
  const { owner, leaseMs } = deps.dispatcher.settings;
  const reopened = await deps.webhooks.reopen(organizationId, id, owner, now, new Date(now.getTime() + leaseMs));
  if (!reopened) throw AppError.notFound("webhook");
  deps.dispatcher.enqueue([reopened]);
  return reopened;
}
