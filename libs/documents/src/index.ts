/**
 * @billing/documents — the platform's PDF documents (invoices, credit notes), rendered with pdfkit
 * from plain views (./views), amounts formatted by @billing/pricing; and the expiring signed links
 * they are served by. Pure: no database, no clock (the caller gives the time).
 */
export type {
  InvoiceDocument,
  InvoiceDocumentFee,
  CreditNoteDocument,
  CreditNoteDocumentItem,
  DocumentParty,
  DocumentTax,
  DocumentCustomSection,
} from "./views";
export { renderInvoicePdf } from "./render-invoice";
export { renderCreditNotePdf } from "./render-credit-note";
export { labelsFor, TRANSLATED_LOCALES } from "./labels";
export { documentFormat, type DocumentFormat } from "./format";
export {
  signedDocumentUrl,
  verifyDocumentLink,
  documentSignature,
  linkExpiry,
  SIGNED_DOCUMENTS_PATH,
  type DocumentKind,
  type DocumentRef,
  type SignedDocumentLink,
  type LinkCheck,
} from "./links";
