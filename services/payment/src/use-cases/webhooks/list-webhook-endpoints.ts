import type { PageRequest } from "@billing/mongo";
import type { WebhookDeps } from "./deps";

/** Oldest first (Lago's order). */
export const listWebhookEndpoints = (deps: WebhookDeps, organizationId: string, page: PageRequest) =>
  deps.webhooks.listEndpoints(organizationId, page);
