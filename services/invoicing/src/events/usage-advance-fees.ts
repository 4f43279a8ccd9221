import { Subjects, type Envelope } from "@billing/bus";
import { advanceFeesCreated } from "../metrics";
import { createAdvanceFeesBatch } from "../use-cases/fees/create-advance-fees";
import type { FeeDeps } from "../use-cases/fees/deps";

export const USAGE_SUBJECTS = [Subjects.usage.eventIngested];

/**
 * billing.usage.event.ingested, parsed with the contract's schema: the pay-in-advance fees of
 * batches of consecutive envelopes, in stream order (the running state the usage service prices
 * from moves envelope by envelope; runBatchConsumer): one pricing call, one fee write per batch. A
 * batch's fee events are published once it is stored, without holding up the next batch (which is
 * priced and stored meanwhile); publications keep the batches' order; what fails is left to the
 * outbox relay.
 */
export function advanceFeesBatchHandler(deps: FeeDeps) {
  let publishing: Promise<void> = Promise.resolve();
  const memo = { sandbox: new Map<string, boolean>() };
  return async (envelopes: Envelope[]): Promise<void> => {
    const { created, publish } = await createAdvanceFeesBatch(deps, envelopes, memo);
    if (created > 0) advanceFeesCreated.inc(created);
    publishing = publishing.then(publish).catch((err: unknown) => deps.logger.warn({ err }, "advance fee events left in the outbox for the relay"));
  };
}
