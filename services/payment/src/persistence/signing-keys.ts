import type { WebhookEndpoint } from "../domain/webhook-endpoint";
import type { SigningKeys } from "../domain/webhook-signing";
import { PromiseCache } from "./promise-cache";
import type { RsaKeyPair, WebhookRepository } from "./webhook-repository";

export interface SigningKeysOptions {
  /** JWT issuer (the API's public URL) */
  issuer: string;
  /** a jwt signature's lifetime (`exp` - `iat`) */
  jwtTtlS: number;
  /** how long an organization's RSA key pair is kept once read: a rotation reaches every replica's signatures within it */
  rsaCacheMs: number;
}

/**
 * The keys that sign an endpoint's deliveries: an organization's HMAC key (read once, then kept)
 * and its RSA key pair (kept `rsaCacheMs`, so that a rotation made by another process is picked up).
 */
export function signingKeysOf(webhooks: WebhookRepository, options: SigningKeysOptions) {
  const hmac = new PromiseCache<string, string>();
  const rsa = new PromiseCache<string, RsaKeyPair>({ ttlMs: options.rsaCacheMs, maxEntries: 10_000 });
  const hmacKey = (organizationId: string) => hmac.get(organizationId, () => webhooks.hmacKey(organizationId));
  const rsaPair = (organizationId: string) => rsa.get(organizationId, () => webhooks.rsaKeyPair(organizationId));
  return {
    hmacKey,
    rsaPair,
    /** The organization's RSA key pair as stored now (the public key served: a rotation shows at once), kept for this process's signatures too. */
    async currentRsaPair(organizationId: string): Promise<RsaKeyPair> {
      rsa.delete(organizationId);
      return rsaPair(organizationId);
    },
    /** Rotates the organization's RSA key pair; this process signs with the new one at once, other replicas within `rsaCacheMs`. */
    async rotateRsaPair(organizationId: string): Promise<RsaKeyPair> {
      const pair = await webhooks.rotateRsaKeyPair(organizationId);
      rsa.delete(organizationId);
      return pair;
    },
    async forEndpoint(endpoint: WebhookEndpoint): Promise<SigningKeys> {
      const organizationId = endpoint.organization_id;
      const [hmacKeyValue, pair] = await Promise.all([
        hmacKey(organizationId),
        endpoint.signature_algo === "jwt" ? rsaPair(organizationId) : null,
      ]);
      return {
        organizationId,
        hmacKey: hmacKeyValue,
        rsa: pair && { kid: pair.kid, privatePem: pair.privatePem },
        issuer: options.issuer,
        jwtTtlS: options.jwtTtlS,
        standardSecret: endpoint.signing_secret,
      };
    },
  };
}
export type SigningKeysSource = ReturnType<typeof signingKeysOf>;
