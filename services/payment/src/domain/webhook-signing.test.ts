import { createHmac, generateKeyPairSync } from "node:crypto";
import jwt from "jsonwebtoken";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newStandardSecret, signatureHeaders } from "./webhook-signing";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const keys = {
  hmacKey: "org-key", rsaPrivateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string, issuer: "https://billing.example.com",
  standardSecret: newStandardSecret(),
};
const payload = JSON.stringify({ webhook_type: "invoice.created", object_type: "invoice", organization_id: "o", invoice: { total_amount_cents: 1200 } });
const now = new Date();

describe("webhook signatures", () => {
  it("hmac: base64 HMAC-SHA256 of the payload with the organization's key", async () => {
    const h = await signatureHeaders("hmac", payload, "key-1", keys, now);
    expect(h).toEqual({ "X-Lago-Unique-Key": "key-1", "X-Lago-Signature-Algorithm": "hmac", "X-Lago-Signature": createHmac("sha256", "org-key").update(payload).digest("base64") });
  });

  it("jwt: RS256 with the payload as `data` and the API as issuer", async () => {
    const h = await signatureHeaders("jwt", payload, "key-1", keys, now);
    const claims = jwt.verify(h["X-Lago-Signature"]!, publicKey.export({ type: "spki", format: "pem" }) as string, { algorithms: ["RS256"], issuer: keys.issuer });
    expect((claims as { data: string }).data).toBe(payload);
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
