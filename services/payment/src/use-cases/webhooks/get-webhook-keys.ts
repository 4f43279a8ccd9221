import type { WebhookDeps } from "./deps";

/**
 * Lago's GET /webhooks/json_public_key: the organization's RSA public key (PEM), base64-encoded,
 * that verifies its `jwt` signatures; made on first need, read as stored (a rotation shows at once).
 */
export async function getWebhookPublicKey(deps: Pick<WebhookDeps, "keys">, organizationId: string): Promise<string> {
  return Buffer.from((await deps.keys.currentRsaPair(organizationId)).publicPem).toString("base64");
}

/** The organization's HMAC key, that verifies `hmac` signatures (Lago shows it in its settings; we serve it at GET /webhooks/hmac_key). */
export const getWebhookHmacKey = (deps: WebhookDeps, organizationId: string) => deps.keys.hmacKey(organizationId);
