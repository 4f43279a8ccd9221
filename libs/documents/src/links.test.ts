import { describe, expect, it } from "vitest";
import { documentSignature, linkExpiry, signedDocumentUrl, verifyDocumentLink } from "./links";

const secret = "0123456789abcdef0123456789abcdef";
const ref = { kind: "invoice", organization_id: "org_1", id: "inv_1" } as const;

describe("signed document links", () => {
  it("accepts its own link until it expires", () => {
    const url = new URL(signedDocumentUrl("https://billing.example/api/v1/", secret, ref, 2_000));
    expect(url.pathname).toBe("/api/v1/documents/invoice/org_1/inv_1.pdf");
    const link = {
      ...ref,
      expires: Number(url.searchParams.get("expires")),
      signature: url.searchParams.get("signature")!,
    };
    expect(verifyDocumentLink(secret, link, 1_999)).toEqual({ ok: true });
    expect(verifyDocumentLink(secret, link, 2_000)).toEqual({ ok: true });
    expect(verifyDocumentLink(secret, link, 2_001)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a link whose document, organization, expiry or signature was changed, or signed under another secret", () => {
    const signature = documentSignature(secret, ref, 2_000);
    const link = { ...ref, expires: 2_000, signature };
    for (const forged of [
      { ...link, id: "inv_2" },
      { ...link, organization_id: "org_2" },
      { ...link, expires: 9_999 },
      { ...link, kind: "credit_note" as const },
      { ...link, signature: signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A") },
      { ...link, signature: "" },
      { ...link, signature: documentSignature("another secret of 32 characters!", ref, 2_000) },
    ])
      expect(verifyDocumentLink(secret, forged, 1_000)).toEqual({ ok: false, reason: "invalid_signature" });
  });

  it("rounds the expiry up to the hour: links made within an hour are one URL", () => {
    expect(linkExpiry(3_600 * 10 + 5, 3_600)).toBe(3_600 * 12);
    expect(linkExpiry(3_600 * 10 + 3_000, 3_600)).toBe(3_600 * 12);
    expect(linkExpiry(3_600 * 10, 3_600)).toBe(3_600 * 11);
  });
});
