import { z } from "zod";

/** Lago's WebhookEndpointCreateInput / UpdateInput (the payment service judges the URL and the types). */
export const webhookEndpointSchema = z.object({
  webhook_url: z.string().min(1).max(2048),
  signature_algo: z.enum(["hmac", "jwt", "standard"]).nullish(),
  name: z.string().max(255).nullish(),
  event_types: z.array(z.string().min(1).max(100)).max(100).nullish(),
});

/** GET /webhooks filters. */
export const webhookListQuery = z.object({
  status: z.enum(["pending", "succeeded", "failed"]).optional(),
  webhook_endpoint_id: z.string().min(1).max(255).optional(),
  webhook_type: z.string().min(1).max(100).optional(),
});
