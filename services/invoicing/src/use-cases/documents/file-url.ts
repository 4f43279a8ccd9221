import { linkExpiry, signedDocumentUrl, type DocumentRef } from "@billing/documents";
import { DOCUMENT_STATUSES } from "../../domain/invoice-document";
import type { CreditNote } from "../../domain/credit-note";
import type { Invoice } from "../../domain/invoice";

export interface DocumentLinkSettings {
  /** the HMAC secret shared with the gateway; without it invoices show no file_url */
  secret: string | undefined;
  /** where the gateway's /api/v1 is reached from outside */
  publicApiUrl: string;
  ttlSeconds: number;
}

/**
 * An invoice's `file_url`: an expiring signed link to its PDF, served by the gateway without the
 * API key (the file is generated at the link's first use if it is not yet). Only a finalized (or
 * voided) invoice has one. The expiry is security, not billing: it runs on the real clock (never
 * a sandbox's test clock), rounded up to the hour so the invoice reads the same within the hour.
 */
export function invoiceFileUrl(
  settings: DocumentLinkSettings,
  invoice: Invoice,
  nowMs: number = Date.now(),
): string | null {
  if (!DOCUMENT_STATUSES.includes(invoice.status)) return null;
  return signedFileUrl(settings, { kind: "invoice", organization_id: invoice.organization_id, id: invoice.id }, nowMs);
}

/** A credit note's `file_url`, signed as an invoice's (every stored credit note is issued, so has one). */
export function creditNoteFileUrl(
  settings: DocumentLinkSettings,
  note: CreditNote,
  nowMs: number = Date.now(),
): string | null {
  return signedFileUrl(settings, { kind: "credit_note", organization_id: note.organization_id, id: note.id }, nowMs);
}

/** The signed link to a document (none without a secret), expiring on the real clock rounded up to the hour. */
export function signedFileUrl(settings: DocumentLinkSettings, ref: DocumentRef, nowMs: number): string | null {
  if (!settings.secret) return null;
  const expires = linkExpiry(Math.floor(nowMs / 1000), settings.ttlSeconds);
  return signedDocumentUrl(settings.publicApiUrl, settings.secret, ref, expires);
}
