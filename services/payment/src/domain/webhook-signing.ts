import { createHmac, randomBytes } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import type { SignatureAlgo } from "./webhook-endpoint";

/** What signs deliveries: the organization's HMAC key, the instance's RSA key, an endpoint's Standard Webhooks secret. */
export interface SigningKeys {
  hmacKey: string;
  /** PKCS#8 PEM */
  rsaPrivateKeyPem: string;
  /** JWT issuer (the API's public URL) */
  issuer: string;
  standardSecret: string | null;
}

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newStandardSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
/** A new organization HMAC key. */
export const newHmacKey = () => randomBytes(32).toString("hex");

const hmacBase64 = (key: string | Buffer, message: string) => createHmac("sha256", key).update(message).digest("base64");

const rsaKeys = new Map<string, ReturnType<typeof importPKCS8>>();
const rsaKey = (pem: string) => {
  let key = rsaKeys.get(pem);
  if (!key) rsaKeys.set(pem, (key = importPKCS8(pem, "RS256")));
  return key;
};

/**
 * The headers that sign one attempt of a delivery: Lago's `X-Lago-Signature` (base64 HMAC-SHA256
 * of the payload with the organization's key, or an RS256 JWT `{data: payload, iss}`), or the
 * Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`
 * = `v1,` base64 HMAC-SHA256 of `id.timestamp.payload` with the endpoint's secret). Every
 * delivery also carries its unique key, the same on every attempt.
 */
export async function signatureHeaders(algo: SignatureAlgo, payload: string, uniqueKey: string, keys: SigningKeys, now: Date): Promise<Record<string, string>> {
  const common = { "X-Lago-Unique-Key": uniqueKey };
  switch (algo) {
    case "hmac":
      return { ...common, "X-Lago-Signature": hmacBase64(keys.hmacKey, payload), "X-Lago-Signature-Algorithm": "hmac" };
    case "jwt": {
      const token = await new SignJWT({ data: payload }).setProtectedHeader({ alg: "RS256" }).setIssuer(keys.issuer).sign(await rsaKey(keys.rsaPrivateKeyPem));
      return { ...common, "X-Lago-Signature": token, "X-Lago-Signature-Algorithm": "jwt" };
    }
    case "standard": {
      if (!keys.standardSecret) throw new Error("a standard endpoint without its secret");
      const timestamp = String(Math.floor(now.getTime() / 1000));
      const secret = Buffer.from(keys.standardSecret.replace(/^whsec_/, ""), "base64");
      const signature = hmacBase64(secret, `${uniqueKey}.${timestamp}.${payload}`);
      return { ...common, "webhook-id": uniqueKey, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
    }
  }
}
