import type { PageRequest } from "@billing/mongo";
import type { DeliveryFilter } from "../../persistence/webhook-repository";
import type { WebhookDeps } from "./deps";

/** The delivery log, newest first: by status, endpoint and type when asked. */
export const listWebhooks = (deps: WebhookDeps, organizationId: string, filter: DeliveryFilter, page: PageRequest) =>
  deps.webhooks.listDeliveries(organizationId, filter, page);
