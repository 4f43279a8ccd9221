import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import { advanceFeesCreated } from "../metrics";
import { createAdvanceFees } from "../use-cases/fees/create-advance-fees";
import type { FeeDeps } from "../use-cases/fees/deps";

export const USAGE_SUBJECTS = [Subjects.usage.eventIngested];

/**
 * billing.usage.event.ingested, parsed with the contract's schema: the pay-in-advance fees of the
 * envelope's events. Envelopes are handled one at a time, in stream order (the running state the
 * usage service prices from moves envelope by envelope).
 */
export function advanceFeesHandler(deps: FeeDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, USAGE_SUBJECTS)) return;
    const created = await createAdvanceFees(deps, envelope, eventData(envelope));
    if (created > 0) advanceFeesCreated.inc(created);
  };
}
