import { Coalescer, type Envelope } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import { eventData, isEvent } from "@billing/contracts";
import type { ProgressiveDeps } from "../use-cases/progressive/deps";
import { checkUsageThresholds } from "../use-cases/progressive/check-usage-thresholds";
import { USAGE_SUBJECTS } from "./usage-advance-fees";

/**
 * billing.usage.event.ingested (an envelope of up to 1000 stored events): the usage thresholds of
 * the subscriptions it touched are checked (progressive billing), never per event, at the
 * organization's time (the usage service stores and announces batches in the background, so an
 * envelope may not carry a sandbox organization's frozen time: it is asked for then). Envelopes of
 * one organization arriving while its check runs are checked together by the next run: a burst
 * costs one check per check-time, not one per envelope, and an envelope is acknowledged only once
 * a check that started after it arrived is done.
 */
export function usageThresholdsHandler(deps: ProgressiveDeps) {
  const checks = new Coalescer();
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, USAGE_SUBJECTS)) return;
    // most organizations never bill progressively: one keyed read (remembered once true) and nothing else
    if (!(await deps.progressive.billsProgressively(envelope.organization_id))) return;
    const subscriptions = [...new Set(eventData(envelope).events.map((e) => e.external_subscription_id))];
    if (subscriptions.length === 0) return;
    const organizationId = envelope.organization_id;
    const frozen = envelope.frozen_time
      ? new Date(envelope.frozen_time)
      : ((await deps.testClocks.frozenTime(organizationId)) ?? null);
    await checks.request(`${organizationId}|${frozen?.toISOString() ?? ""}`, subscriptions, async (all) => {
      const check = () => checkUsageThresholds(deps, organizationId, all, { sandbox: frozen !== null });
      await (frozen ? atFrozenTime(frozen, check) : check());
    });
  };
}
