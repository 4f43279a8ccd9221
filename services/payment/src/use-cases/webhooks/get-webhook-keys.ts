import type { WebhookDeps } from "./deps";

/** Lago's GET /webhooks/json_public_key: the instance's RSA public key (PEM), base64-encoded, that verifies `jwt` signatures. */
export async function getWebhookPublicKey(deps: WebhookDeps): Promise<string> {
  return Buffer.from((await deps.keys.rsaPair()).publicPem).toString("base64");
}

/** The organization's HMAC key, that verifies `hmac` signatures (Lago shows it in its settings; we serve it at GET /webhooks/hmac_key). */
export const getWebhookHmacKey = (deps: WebhookDeps, organizationId: string) => deps.keys.hmacKey(organizationId);
