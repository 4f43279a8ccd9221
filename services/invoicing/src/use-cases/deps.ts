import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { Logger } from "@billing/logger";
import type { AddOns } from "../peers/add-ons";
import type { AppliedCoupons } from "../peers/applied-coupons";
import type { BillingEntities } from "../peers/billing-entities";
import type { UsagePeer } from "../peers/usage";
import type { Wallets } from "../peers/wallets";
import type { CopyRepository } from "../persistence/copy-repository";
import type { CreditNoteRepository } from "../persistence/credit-note-repository";
import type { InvoiceNumbers } from "../persistence/invoice-numbers";
import type { InvoiceRepository } from "../persistence/invoice-repository";

/** How a billing pass runs: subscriptions per usage call, invoices written at once. */
export interface BillingLimits {
  /** subscriptions taken per pass (one ChargeUsage call prices all of them) */
  batch: number;
  /** invoices priced, stored and finalized at once */
  concurrency: number;
}

/** What every use case of the invoicing service is given. */
export interface InvoicingDeps {
  copies: CopyRepository;
  invoices: InvoiceRepository;
  numbers: InvoiceNumbers;
  usage: UsagePeer;
  billingEntities: BillingEntities;
  appliedCoupons: AppliedCoupons;
  /** The wallet service: prepaid credits taken when an invoice is finalized. */
  wallets: Wallets;
  clock: Clock;
  logger: Logger;
  limits: BillingLimits;
  /** Publishes events already written to an invoice's outbox. */
  publish(invoiceId: string, events: Envelope[]): Promise<void>;
  /** The catalog's add-ons and taxes (one-off invoices). */
  addOns: AddOns;
  /** Credit notes: their balances are consumed by later invoices. */
  creditNotes: CreditNoteRepository;
  /** Publishes events already written to a credit note's outbox. */
  publishCreditNote(creditNoteId: string, events: Envelope[]): Promise<void>;
  /** Resolves once the consumers have handled every event already published to them (a test clock step). */
  caughtUp(): Promise<void>;
}
