import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { Logger } from "@billing/logger";
import type { DocumentParties } from "../../peers/document-parties";
import type { CreditNoteRepository } from "../../persistence/credit-note-repository";
import type { DocumentRepository } from "../../persistence/document-repository";
import type { InvoiceRepository } from "../../persistence/invoice-repository";

/** What the document use cases are given. */
export interface DocumentDeps {
  invoices: InvoiceRepository;
  creditNotes: CreditNoteRepository;
  documents: DocumentRepository;
  parties: DocumentParties;
  logger: Logger;
  /** business time (the organization's test clock) and the publishers: an invoice's or a note's first PDF is announced (absent: not announced) */
  clock?: Clock;
  publishCreditNote?(creditNoteId: string, events: Envelope[]): Promise<void>;
  publishInvoice?(invoiceId: string, events: Envelope[]): Promise<void>;
}
