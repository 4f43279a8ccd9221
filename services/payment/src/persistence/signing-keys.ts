import type { WebhookEndpoint } from "../domain/webhook-endpoint";
import type { SigningKeys } from "../domain/webhook-signing";
import { PromiseCache } from "./promise-cache";
import type { WebhookRepository } from "./webhook-repository";

/** The keys that sign an endpoint's deliveries (an organization's HMAC key and the RSA key are read once, then kept). */
export function signingKeysOf(webhooks: WebhookRepository, issuer: string) {
  const hmac = new PromiseCache<string, string>();
  const rsa = new PromiseCache<"rsa", { privatePem: string; publicPem: string }>();
  const hmacKey = (organizationId: string) => hmac.get(organizationId, () => webhooks.hmacKey(organizationId));
  const rsaPair = () => rsa.get("rsa", () => webhooks.rsaKeyPair());
  return {
    hmacKey,
    rsaPair,
    async forEndpoint(endpoint: WebhookEndpoint): Promise<SigningKeys> {
      const [hmacKeyValue, pair] = await Promise.all([hmacKey(endpoint.organization_id), endpoint.signature_algo === "jwt" ? rsaPair() : null]);
      return { hmacKey: hmacKeyValue, rsaPrivateKeyPem: pair?.privatePem ?? "", issuer, standardSecret: endpoint.signing_secret };
    },
  };
}
export type SigningKeysSource = ReturnType<typeof signingKeysOf>;
