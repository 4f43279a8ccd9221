import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import { advanceFeesCreated } from "../metrics";
import { createAdvanceFees, createAdvanceFeesBatch } from "../use-cases/fees/create-advance-fees";
import type { FeeDeps } from "../use-cases/fees/deps";

export const USAGE_SUBJECTS = [Subjects.usage.eventIngested];

/**
 * billing.usage.event.ingested, parsed with the contract's schema: the pay-in-advance fees of the
 * envelope's events, one envelope at a time (kept for callers that hand over single envelopes).
 */
export function advanceFeesHandler(deps: FeeDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, USAGE_SUBJECTS)) return;
    const created = await createAdvanceFees(deps, envelope, eventData(envelope));
    if (created > 0) advanceFeesCreated.inc(created);
  };
}

/**
 * The same for batches of consecutive envelopes, in stream order (the running state the usage
 * service prices from moves envelope by envelope): one pricing call, one fee write per batch. A
 * batch's fee events are published once it is stored, without holding up the next batch (which is
 * priced and stored meanwhile); publications keep the batches' order; what fails is left to the
 * outbox relay.
 */
export function advanceFeesBatchHandler(deps: FeeDeps) {
  let publishing: Promise<void> = Promise.resolve();
  return async (envelopes: Envelope[]): Promise<void> => {
    const { created, publish } = await createAdvanceFeesBatch(deps, envelopes);
    if (created > 0) advanceFeesCreated.inc(created);
    publishing = publishing.then(publish).catch((err: unknown) => deps.logger.warn({ err }, "advance fee events left in the outbox for the relay"));
  };
}
