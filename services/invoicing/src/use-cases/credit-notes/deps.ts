import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { Logger } from "@billing/logger";
import type { CreditNote } from "../../domain/credit-note";
import type { CreditInvoiceWallets } from "../../peers/credit-invoice-wallets";
import type { CopyRepository } from "../../persistence/copy-repository";
import type { CreditNoteRepository } from "../../persistence/credit-note-repository";
import type { InvoiceRepository } from "../../persistence/invoice-repository";

/** What the credit note use cases (and their gRPC handlers) are given; each takes the part it uses. */
export interface CreditNoteDeps {
  creditNotes: CreditNoteRepository;
  invoices: InvoiceRepository;
  copies: CopyRepository;
  /** A credit invoice's wallet, for credit notes on it (a refund voids as much of its credits). */
  creditInvoiceWallets: CreditInvoiceWallets;
  clock: Clock;
  logger: Logger;
  /** Publishes events already written to an invoice's outbox (an offset pays the invoice). */
  publish(invoiceId: string, events: Envelope[]): Promise<void>;
  /** Publishes events already written to a credit note's outbox. */
  publishCreditNote(creditNoteId: string, events: Envelope[]): Promise<void>;
  /** A credit note's file_url (a signed link to its PDF); absent when document links are not configured (integration tests): no file_url. */
  creditNoteFileUrl?(note: CreditNote): string | null;
}
