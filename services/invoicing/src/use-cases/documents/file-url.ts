import { linkExpiry, signedDocumentUrl } from "@billing/documents";
import { DOCUMENT_STATUSES } from "../../domain/invoice-document";
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
export function invoiceFileUrl(settings: DocumentLinkSettings, invoice: Invoice, nowMs: number = Date.now()): string | null {
  if (!settings.secret || !DOCUMENT_STATUSES.includes(invoice.status)) return null;
  const expires = linkExpiry(Math.floor(nowMs / 1000), settings.ttlSeconds);
  return signedDocumentUrl(settings.publicApiUrl, settings.secret, { kind: "invoice", organization_id: invoice.organization_id, id: invoice.id }, expires);
}
