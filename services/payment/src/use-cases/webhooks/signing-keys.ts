import type { WebhookEndpoint } from "../../domain/webhook-endpoint";
import type { SigningKeys } from "../../domain/webhook-signing";
import type { WebhookRepository } from "../../persistence/webhook-repository";

/** The keys that sign an endpoint's deliveries (an organization's HMAC key and the RSA key are read once, then kept). */
export function signingKeysOf(webhooks: WebhookRepository, issuer: string) {
  const hmac = new Map<string, Promise<string>>();
  let rsa: Promise<{ privatePem: string; publicPem: string }> | undefined;
  const hmacKey = (organizationId: string) => {
    let key = hmac.get(organizationId);
    if (!key) {
      hmac.set(organizationId, (key = webhooks.hmacKey(organizationId)));
      key.catch(() => hmac.delete(organizationId));
    }
    return key;
  };
  const rsaPair = () => {
    if (!rsa) {
      rsa = webhooks.rsaKeyPair();
      rsa.catch(() => (rsa = undefined));
    }
    return rsa;
  };
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
