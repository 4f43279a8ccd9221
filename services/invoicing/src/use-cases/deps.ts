import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { Logger } from "@billing/logger";
import type { Invoice } from "../domain/invoice";
import type { CreditNote } from "../domain/credit-note";
import type { AddOns } from "../peers/add-ons";
import type { AppliedCoupons } from "../peers/applied-coupons";
import type { BillingEntities } from "../peers/billing-entities";
import type { UsagePeer } from "../peers/usage";
import type { TestClocks } from "../peers/test-clocks";
import type { Wallets } from "../peers/wallets";
import type { VoidRecredits } from "../peers/void-recredits";
import type { CreditInvoiceWallets } from "../peers/credit-invoice-wallets";
import type { DocumentParties } from "../peers/document-parties";
import type { Fee } from "../domain/invoice";
import type { AdvanceFeeRecord } from "../domain/advance-fees";
import type { CopyRepository } from "../persistence/copy-repository";
import type { CreditNoteRepository } from "../persistence/credit-note-repository";
import type { InvoiceNumbers } from "../persistence/invoice-numbers";
import type { InvoiceRepository } from "../persistence/invoice-repository";
import type { ProgressiveRepository } from "../persistence/progressive-repository";

/** How a billing pass runs: subscriptions per usage call, invoices written at once. */
export interface BillingLimits {
  /** subscriptions taken per pass (one ChargeUsage call prices all of them) */
  batch: number;
  /** invoices priced, stored and finalized at once */
  concurrency: number;
}

/**
 * The pay-in-advance fees waiting for an invoice (not invoiceable): never on a periodic invoice; once
 * paid, those of charges regrouping paid fees go on an advance_charges invoice at the next billing
 * run (billing/bill-advance-charges.ts).
 */
export interface WaitingFees {
  /** Marks these fees as on the invoice (those still waiting; idempotent). */
  attach(feeIds: readonly string[], invoiceId: string): Promise<void>;
  /** The paid fees waiting for an advance_charges invoice (paid by `paidBy`; a periodic run: charges period ended by then). */
  paid?(organizationId: string, subscriptionIds: readonly string[], paidBy: Date, periodEndedBy: Date | null): Promise<Fee[]>;
  /** Stores fees created by a billing without an invoice (recurring units paid in advance); one already stored is left as it is. */
  store?(records: readonly AdvanceFeeRecord[]): Promise<void>;
  /** Writes these fees' announcements once under `batchId` (the fee outbox), then publishes them. */
  announce?(batchId: string, events: Envelope[]): Promise<void>;
}

/** What every use case of the invoicing service is given. */
export interface InvoicingDeps {
  copies: CopyRepository;
  invoices: InvoiceRepository;
  numbers: InvoiceNumbers;
  /** Progressive billing: lifetime usage reads, historical usage. */
  progressive: ProgressiveRepository;
  usage: UsagePeer;
  billingEntities: BillingEntities;
  appliedCoupons: AppliedCoupons;
  /** The wallet service: prepaid credits taken when an invoice is finalized. */
  wallets: Wallets;
  /** What a voided invoice gives back to applied coupons and wallets (absent: nothing). */
  voidRecredits?: VoidRecredits;
  /** A credit invoice's wallet, for credit notes on it (absent: credit invoices take no credit notes). */
  creditInvoiceWallets?: CreditInvoiceWallets;
  /** The customer service's view of customers: the custom sections an invoice shows, fixed when it is finalized (absent: none). */
  documentParties?: Pick<DocumentParties, "sections" | "resolveSections">;
  /** Sandbox organizations' frozen time (progressive billing's usage envelopes may not carry it). */
  testClocks?: TestClocks;
  clock: Clock;
  logger: Logger;
  limits: BillingLimits;
  /** Publishes events already written to an invoice's outbox. */
  publish(invoiceId: string, events: Envelope[]): Promise<void>;
  /** An invoice's file_url (a signed link to its PDF), when documents are configured. */
  fileUrl?(invoice: Invoice): string | null;
  /** A credit note's file_url (a signed link to its PDF), when documents are configured. */
  creditNoteFileUrl?(note: CreditNote): string | null;
  /** Pay-in-advance fees waiting for their periodic invoice (absent: none are gathered). */
  waitingFees?: WaitingFees;
  /** The catalog's add-ons and taxes (one-off invoices). */
  addOns: AddOns;
  /** Credit notes: their balances are consumed by later invoices. */
  creditNotes: CreditNoteRepository;
  /** Publishes events already written to a credit note's outbox. */
  publishCreditNote(creditNoteId: string, events: Envelope[]): Promise<void>;
  /** Resolves once the consumers have handled every event already published to them (a test clock step). */
  caughtUp(): Promise<void>;
}
