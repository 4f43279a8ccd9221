import { createHmac, generateKeyPairSync } from "node:crypto";
import jwt from "jsonwebtoken";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newRsaKeyPair, newStandardSecret, signatureHeaders } from "./webhook-signing";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const keys = {
  organizationId: "org-1",
  hmacKey: "org-key",
  rsa: { kid: "kid-1", privatePem: privateKey.export({ type: "pkcs8", format: "pem" }) as string },
  issuer: "https://billing.example.com",
  jwtTtlS: 600,
  standardSecret: newStandardSecret(),
};
const payload = JSON.stringify({
  webhook_type: "invoice.created",
  object_type: "invoice",
  organization_id: "o",
  invoice: { total_amount_cents: 1200 },
});
const now = new Date();

describe("webhook signatures", () => {
  it("hmac: base64 HMAC-SHA256 of the payload with the organization's key", async () => {
    const h = await signatureHeaders("hmac", payload, "key-1", keys, now);
    expect(h).toEqual({
      "X-Lago-Unique-Key": "key-1",
      "X-Lago-Signature-Algorithm": "hmac",
      "X-Lago-Signature": createHmac("sha256", "org-key").update(payload).digest("base64"),
    });
  });

  it("jwt: RS256 with the payload as `data` and the API as issuer", async () => {
    const h = await signatureHeaders("jwt", payload, "key-1", keys, now);
    const claims = jwt.verify(h["X-Lago-Signature"]!, publicKey.export({ type: "spki", format: "pem" }) as string, {
      algorithms: ["RS256"],
      issuer: keys.issuer,
    });
    expect((claims as { data: string }).data).toBe(payload);
  });

  it("jwt: carries iat (the attempt's time), exp (iat + the lifetime), the organization and the key's kid, and expires", async () => {
    const h = await signatureHeaders("jwt", payload, "key-1", keys, now);
    const token = h["X-Lago-Signature"]!;
    const pem = publicKey.export({ type: "spki", format: "pem" }) as string;
    const iat = Math.floor(now.getTime() / 1000);
    expect(jwt.verify(token, pem, { algorithms: ["RS256"] })).toEqual({
      data: payload,
      iss: keys.issuer,
      iat,
      exp: iat + 600,
      organization_id: "org-1",
    });
    expect(jwt.decode(token, { complete: true })!.header).toEqual({ alg: "RS256", kid: "kid-1" });
    const old = await signatureHeaders("jwt", payload, "key-1", keys, new Date(now.getTime() - 601_000));
    expect(() => jwt.verify(old["X-Lago-Signature"]!, pem, { algorithms: ["RS256"] })).toThrow(/jwt expired/);
    await expect(signatureHeaders("jwt", payload, "key-1", { ...keys, rsa: null }, now)).rejects.toThrow(/RSA key/);
  });

  it("makes RSA key pairs named by their public key's thumbprint", async () => {
    const [a, b] = await Promise.all([newRsaKeyPair(), newRsaKeyPair()]);
    expect(a.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.kid).not.toBe(b.kid);
    const token = (
      await signatureHeaders("jwt", payload, "k", { ...keys, rsa: { kid: a.kid, privatePem: a.private_pem } }, now)
    )["X-Lago-Signature"]!;
    expect(() => jwt.verify(token, a.public_pem, { algorithms: ["RS256"] })).not.toThrow();
    expect(() => jwt.verify(token, b.public_pem, { algorithms: ["RS256"] })).toThrow(/invalid signature/);
  });

  it("standard: verified by the Standard Webhooks library, and refused when tampered or stale", async () => {
    const h = await signatureHeaders("standard", payload, "msg_1", keys, now);
    const wh = new Webhook(keys.standardSecret);
    expect(wh.verify(payload, h)).toEqual(JSON.parse(payload));
    expect(() => wh.verify(payload.replace("1200", "1300"), h)).toThrow();
    const old = await signatureHeaders("standard", payload, "msg_1", keys, new Date(now.getTime() - 3600_000));
    expect(() => wh.verify(payload, old)).toThrow();
  });
});
