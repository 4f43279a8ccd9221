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
}
