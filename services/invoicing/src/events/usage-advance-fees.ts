import { Subjects, type Envelope } from "@billing/bus";
import { advanceFeesCreated } from "../metrics";
import { priceAdvanceFeesBatch } from "../use-cases/fees/create-advance-fees";
import type { FeeDeps } from "../use-cases/fees/deps";

export const USAGE_SUBJECTS = [Subjects.usage.eventIngested];

/**
 * billing.usage.event.ingested, parsed with the contract's schema: the pay-in-advance fees of
 * batches of consecutive envelopes, in stream order (the running state the usage service prices
 * from moves envelope by envelope; runBatchConsumer): one pricing call, one fee write per batch,
 * a batch stored while the next is priced. A batch's fee events are published once it is stored,
 * without holding up the next batch; publications keep the batches' order; what fails is left to
 * the outbox relay.
 */
export function advanceFeesBatchHandler(deps: FeeDeps) {
  let publishing: Promise<void> = Promise.resolve();
  const memo = { sandbox: new Map<string, boolean>() };
  return async (envelopes: Envelope[]): Promise<() => Promise<void>> => {
    // priced now, in stream order; stored by the consumer after the batch before is, while the next is priced
    const store = await priceAdvanceFeesBatch(deps, envelopes, memo);
    return async () => {
      const { created, publish } = await store();
      if (created > 0) advanceFeesCreated.inc(created);
      publishing = publishing
        .then(publish)
        .catch((err: unknown) => deps.logger.warn({ err }, "advance fee events left in the outbox for the relay"));
    };
  };
}
