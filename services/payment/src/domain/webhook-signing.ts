import { createHmac, generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { calculateJwkThumbprint, exportJWK, importPKCS8, importSPKI, SignJWT } from "jose";
import type { SignatureAlgo } from "./webhook-endpoint";

/** An organization's RSA key for `jwt` signatures: `kid` is the public key's JWK thumbprint (RFC 7638). */
export interface RsaSigningKey {
  kid: string;
  /** PKCS#8 PEM */
  privatePem: string;
}

/** What signs deliveries: the organization's HMAC key and RSA key, an endpoint's Standard Webhooks secret. */
export interface SigningKeys {
  organizationId: string;
  hmacKey: string;
  /** the organization's RSA key (for `jwt` endpoints; null for the others) */
  rsa: RsaSigningKey | null;
  /** JWT issuer (the API's public URL) */
  issuer: string;
  /** how long a `jwt` signature is valid: its `exp` is its `iat` plus this */
  jwtTtlS: number;
  standardSecret: string | null;
}

/** A new RSA key pair (2048 bits; PKCS#8 and SPKI PEM) with its `kid`, made off the event loop. */
export async function newRsaKeyPair(): Promise<{ kid: string; private_pem: string; public_pem: string }> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const kid = await calculateJwkThumbprint(await exportJWK(await importSPKI(publicKey, "RS256")));
  return { kid, private_pem: privateKey, public_pem: publicKey };
}

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newStandardSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
/** A new organization HMAC key. */
export const newHmacKey = () => randomBytes(32).toString("hex");

const hmacBase64 = (key: string | Buffer, message: string) =>
  createHmac("sha256", key).update(message).digest("base64");

/** Imported private keys by PEM (one per organization, and per rotation): dropped whole past MAX_IMPORTED_KEYS, then imported again as used. */
const MAX_IMPORTED_KEYS = 10_000;
const rsaKeys = new Map<string, ReturnType<typeof importPKCS8>>();
const rsaKey = (pem: string) => {
  let key = rsaKeys.get(pem);
  if (!key) {
    if (rsaKeys.size >= MAX_IMPORTED_KEYS) rsaKeys.clear();
    rsaKeys.set(pem, (key = importPKCS8(pem, "RS256")));
  }
  return key;
};

/**
 * The headers that sign one attempt of a delivery: Lago's `X-Lago-Signature` (base64 HMAC-SHA256
 * of the payload with the organization's key, or an RS256 JWT `{data: payload, iss}` signed with
 * the organization's RSA key, which also carries `iat` (`now`), `exp` and `organization_id`, and
 * the key's `kid` in its header), or the
 * Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`
 * = `v1,` base64 HMAC-SHA256 of `id.timestamp.payload` with the endpoint's secret). Every
 * delivery also carries its unique key, the same on every attempt.
 */
export async function signatureHeaders(
  algo: SignatureAlgo,
  payload: string,
  uniqueKey: string,
  keys: SigningKeys,
  now: Date,
): Promise<Record<string, string>> {
  const common = { "X-Lago-Unique-Key": uniqueKey };
  switch (algo) {
    case "hmac":
      return { ...common, "X-Lago-Signature": hmacBase64(keys.hmacKey, payload), "X-Lago-Signature-Algorithm": "hmac" };
    case "jwt": {
      if (!keys.rsa) throw new Error("a jwt endpoint without its organization's RSA key");
      const iat = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ data: payload, organization_id: keys.organizationId })
        .setProtectedHeader({ alg: "RS256", kid: keys.rsa.kid })
        .setIssuer(keys.issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + keys.jwtTtlS)
        .sign(await rsaKey(keys.rsa.privatePem));
      return { ...common, "X-Lago-Signature": token, "X-Lago-Signature-Algorithm": "jwt" };
    }
    case "standard": {
      if (!keys.standardSecret) throw new Error("a standard endpoint without its secret");
      const timestamp = String(Math.floor(now.getTime() / 1000));
      const secret = Buffer.from(keys.standardSecret.replace(/^whsec_/, ""), "base64");
      const signature = hmacBase64(secret, `${uniqueKey}.${timestamp}.${payload}`);
      return {
        ...common,
        "webhook-id": uniqueKey,
        "webhook-timestamp": timestamp,
        "webhook-signature": `v1,${signature}`,
      };
    }
  }
}
