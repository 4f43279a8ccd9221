import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import type { InvoicingDeps } from "../use-cases/deps";
import { checkUsageThresholds } from "../use-cases/progressive/check-usage-thresholds";

export const USAGE_SUBJECTS = [Subjects.usage.eventIngested];

/**
 * billing.usage.event.ingested (an envelope of up to 1000 stored events): the usage thresholds of
 * the subscriptions it touched are checked once each (progressive billing), never per event.
 */
export function usageIngestedHandler(deps: InvoicingDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, USAGE_SUBJECTS)) return;
    const data = eventData(envelope);
    const subscriptions = [...new Set(data.events.map((e) => e.external_subscription_id))];
    await checkUsageThresholds(deps, envelope.organization_id, subscriptions, { sandbox: envelope.frozen_time !== undefined });
  };
}
