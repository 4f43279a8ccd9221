import type { Envelope } from "@billing/bus";
import type { Logger } from "@billing/logger";
import type { AdvanceFeesPeer } from "../../peers/advance-fees";
import type { FeeRepository } from "../../persistence/fee-repository";
import type { FinalizeDeps } from "../invoices/deps";

/** What the fee use cases are given: the finalization (a pay-in-advance fee's invoice), the fees, and the usage service's pay-in-advance pricing. */
export interface FeeDeps extends FinalizeDeps {
  logger: Logger;
  fees: FeeRepository;
  advanceFees: AdvanceFeesPeer;
  /** Publishes the events already written to envelopes' batch outboxes (one clearing write). */
  publishManyFeeEvents(byBatch: ReadonlyMap<string, readonly Envelope[]>): Promise<void>;
}
