import type { WebhookDeps } from "./deps";

/** What a rotation made: the new key's `kid`, its version (the rotations so far, plus one) and its public key as GET /webhooks/json_public_key serves it. */
export interface RotatedWebhookKey {
  kid: string;
  version: number;
  public_key: string;
}

/**
 * Replaces the organization's RSA key pair (its `jwt` webhook signatures) by a new one: GET
 * /webhooks/json_public_key serves the new public key at once, and every replica signs with the
 * new private key within WEBHOOK_KEY_CACHE_MS (an attempt signed with the old one that its
 * receiver refuses is retried, and signed again). The old pair is not kept.
 */
export async function rotateWebhookKey(
  deps: Pick<WebhookDeps, "keys">,
  organizationId: string,
): Promise<RotatedWebhookKey> {
  const pair = await deps.keys.rotateRsaPair(organizationId);
  return { kid: pair.kid, version: pair.version, public_key: Buffer.from(pair.publicPem).toString("base64") };
}
