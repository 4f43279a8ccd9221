import type { Envelope } from "@billing/bus";
import type { AdvanceFeesPeer } from "../../peers/advance-fees";
import type { FeeRepository } from "../../persistence/fee-repository";
import type { InvoicingDeps } from "../deps";

/** What the fee use cases are given: the invoicing deps, the fees, and the usage service's pay-in-advance pricing. */
export interface FeeDeps extends InvoicingDeps {
  fees: FeeRepository;
  advanceFees: AdvanceFeesPeer;
  /** Publishes the events already written to envelopes' batch outboxes (one clearing write). */
  publishManyFeeEvents(byBatch: ReadonlyMap<string, readonly Envelope[]>): Promise<void>;
}
