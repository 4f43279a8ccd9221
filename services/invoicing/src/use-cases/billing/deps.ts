import type { Envelope } from "@billing/bus";
import type { Logger } from "@billing/logger";
import type { AdvanceFeeRecord } from "../../domain/advance-fees";
import type { Fee } from "../../domain/invoice";
import type { ProgressiveRepository } from "../../persistence/progressive-repository";
import type { FinalizeDeps } from "../invoices/deps";

/**
 * The pay-in-advance fees waiting for an invoice (not invoiceable): never on a periodic invoice; once
 * paid, those of charges regrouping paid fees go on an advance_charges invoice at the next billing
 * run (billing/bill-advance-charges.ts).
 */
export interface WaitingFees {
  /** Marks these fees as on the invoice (those still waiting; idempotent). */
  attach(feeIds: readonly string[], invoiceId: string): Promise<void>;
  /** The paid fees waiting for an advance_charges invoice (paid by `paidBy`; a periodic run: charges period ended by then). */
  paid(
    organizationId: string,
    subscriptionIds: readonly string[],
    paidBy: Date,
    periodEndedBy: Date | null,
  ): Promise<Fee[]>;
  /** Stores fees created by a billing without an invoice (recurring units paid in advance); one already stored is left as it is. */
  store(records: readonly AdvanceFeeRecord[]): Promise<void>;
  /** Writes these fees' announcements once under `batchId` (the fee outbox), then publishes them. */
  announce(batchId: string, events: Envelope[]): Promise<void>;
}

/**
 * What a billing run is given (bill-due-subscriptions.ts, and the copies' consumers that bill what
 * a change makes due): the finalization, progressive billing's credits, the waiting pay-in-advance
 * fees. Each use case takes the part it uses.
 */
export interface BillingDeps extends FinalizeDeps {
  logger: Logger;
  /** Progressive billing: what earlier progressive invoices billed of a period. */
  progressive: ProgressiveRepository;
  /** Pay-in-advance fees waiting for an invoice. */
  waitingFees: WaitingFees;
}
