import { Subjects, type Envelope } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import { eventData, isEvent } from "@billing/contracts";
import type { InvoicingDeps } from "../use-cases/deps";
import { checkUsageThresholds } from "../use-cases/progressive/check-usage-thresholds";

export const USAGE_SUBJECTS = [Subjects.usage.eventIngested];

/**
 * billing.usage.event.ingested (an envelope of up to 1000 stored events): the usage thresholds of
 * the subscriptions it touched are checked once each (progressive billing), never per event, at
 * the organization's time (the usage service stores and announces batches in the background, so
 * an envelope may not carry a sandbox organization's frozen time: it is asked for then).
 */
export function usageIngestedHandler(deps: InvoicingDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, USAGE_SUBJECTS)) return;
    const subscriptions = [...new Set(eventData(envelope).events.map((e) => e.external_subscription_id))];
    if (subscriptions.length === 0) return;
    const frozen = envelope.frozen_time ? new Date(envelope.frozen_time) : ((await deps.testClocks?.frozenTime(envelope.organization_id)) ?? null);
    const check = () => checkUsageThresholds(deps, envelope.organization_id, subscriptions, { sandbox: frozen !== null });
    await (frozen ? atFrozenTime(frozen, check) : check());
  };
}
