import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { Logger } from "@billing/logger";
import type { Invoice } from "../../domain/invoice";
import type { AddOns } from "../../peers/add-ons";
import type { AppliedCoupons } from "../../peers/applied-coupons";
import type { BillingEntities } from "../../peers/billing-entities";
import type { DocumentParties } from "../../peers/document-parties";
import type { UsagePeer } from "../../peers/usage";
import type { VoidRecredits } from "../../peers/void-recredits";
import type { Wallets } from "../../peers/wallets";
import type { CopyRepository } from "../../persistence/copy-repository";
import type { CreditNoteRepository } from "../../persistence/credit-note-repository";
import type { InvoiceNumbers } from "../../persistence/invoice-numbers";
import type { InvoiceRepository } from "../../persistence/invoice-repository";
import type { BillingLimits } from "../deps";

/**
 * What an invoice's finalization takes (finalize-open-invoice.ts): a draft's fees priced again,
 * the coupons, credit notes and prepaid credits it consumes, its number, its custom sections. Every
 * use case that finalizes an invoice (billing runs, progressive billing, pay-in-advance fees, one-off
 * and credit invoices, regenerations) is given at least this.
 */
export interface FinalizeDeps {
  copies: CopyRepository;
  invoices: InvoiceRepository;
  numbers: InvoiceNumbers;
  /** Credit notes: their balances are consumed by later invoices. */
  creditNotes: CreditNoteRepository;
  /** The usage service: a draft's usage priced again. */
  usage: UsagePeer;
  billingEntities: BillingEntities;
  appliedCoupons: AppliedCoupons;
  /** The wallet service: prepaid credits taken when an invoice is finalized. */
  wallets: Wallets;
  /** The customer service's view of customers: the custom sections an invoice shows, fixed when it is finalized. */
  documentParties: Pick<DocumentParties, "sections" | "resolveSections">;
  clock: Clock;
  limits: BillingLimits;
  /** Publishes events already written to an invoice's outbox. */
  publish(invoiceId: string, events: Envelope[]): Promise<void>;
  /** Publishes events already written to a credit note's outbox. */
  publishCreditNote(creditNoteId: string, events: Envelope[]): Promise<void>;
}

/** What the invoice use cases (and their gRPC handlers) are given; each takes the part it uses. */
export interface InvoiceDeps extends FinalizeDeps {
  logger: Logger;
  /** The catalog's add-ons and taxes (one-off invoices). */
  addOns: AddOns;
  /** What a voided invoice gives back to applied coupons and wallets. */
  voidRecredits: VoidRecredits;
  /** Resolves once the consumers have handled every event already published to them (a customer created a moment ago). */
  caughtUp(): Promise<void>;
  /** An invoice's file_url (a signed link to its PDF); absent when document links are not configured (integration tests): no file_url. */
  fileUrl?(invoice: Invoice): string | null;
}
