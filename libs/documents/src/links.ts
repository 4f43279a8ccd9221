import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Expiring signed links to a document, served without an API key: the path names the document
 * (its kind, organization and id), the query its expiry (Unix seconds) and an HMAC-SHA256 of
 * both under a secret the signing service and the gateway share. Forging one needs the secret;
 * changing the expiry, the id or the organization breaks the signature.
 */
export type DocumentKind = "invoice" | "credit_note";

export interface DocumentRef {
  kind: DocumentKind;
  organization_id: string;
  id: string;
}

export interface SignedDocumentLink extends DocumentRef {
  expires: number;
  signature: string;
}

/** The path (under /api/v1) a signed link is served at. */
export const SIGNED_DOCUMENTS_PATH = "/documents";

const payload = (ref: DocumentRef, expires: number) => `${ref.kind}\n${ref.organization_id}\n${ref.id}\n${expires}`;

export function documentSignature(secret: string, ref: DocumentRef, expires: number): string {
  return createHmac("sha256", secret).update(payload(ref, expires)).digest("base64url");
}

/** `${baseUrl}/documents/invoice/{org}/{id}.pdf?expires=…&signature=…`. */
export function signedDocumentUrl(baseUrl: string, secret: string, ref: DocumentRef, expires: number): string {
  const path = `${SIGNED_DOCUMENTS_PATH}/${ref.kind}/${encodeURIComponent(ref.organization_id)}/${encodeURIComponent(ref.id)}.pdf`;
  return `${baseUrl.replace(/\/+$/, "")}${path}?expires=${expires}&signature=${documentSignature(secret, ref, expires)}`;
}

export type LinkCheck = { ok: true } | { ok: false; reason: "expired" | "invalid_signature" };

/** Checks a link's signature (in constant time), then its expiry against `nowSeconds`. */
export function verifyDocumentLink(secret: string, link: SignedDocumentLink, nowSeconds: number): LinkCheck {
  const expected = Buffer.from(documentSignature(secret, link, link.expires));
  const given = Buffer.from(link.signature);
  if (!Number.isSafeInteger(link.expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "invalid_signature" };
  }
  return link.expires < nowSeconds ? { ok: false, reason: "expired" } : { ok: true };
}

/**
 * The expiry of a link made at `nowSeconds` valid for at least `ttlSeconds`: rounded up to the
 * hour, so the links made within one hour are the same URL (an invoice read twice shows one file_url).
 */
export function linkExpiry(nowSeconds: number, ttlSeconds: number): number {
  return Math.ceil((nowSeconds + ttlSeconds) / 3600) * 3600;
}
