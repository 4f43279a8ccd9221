import { counter } from "@billing/telemetry";

/** The payment service's business metrics (served on `/metrics` with the runtime's). */

/**
 * Webhook delivery attempts by outcome: `succeeded` (a 2xx), `retried` (failed, another attempt
 * scheduled), `failed` (failed for good: retries exhausted, or the endpoint deleted).
 */
export const webhookDeliveries = counter(
  "webhook_deliveries_total",
  "Webhook delivery attempts, by outcome (succeeded, retried, failed)",
  ["outcome"],
);
