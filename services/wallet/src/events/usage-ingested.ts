import { Subjects, Coalescer, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import type { WalletDeps } from "../use-cases/deps";
import { refreshOngoingUsage } from "../use-cases/wallets/refresh-ongoing-usage";

export const USAGE_SUBJECTS = [Subjects.usage.eventIngested];

/**
 * billing.usage.event.ingested (a stored batch of events): the ongoing usage of the customers whose
 * subscriptions the batch touched is recomputed, never a query per event, and batches arriving
 * together share one refresh. The
 * usage service stores batches in the background, so the batch may not carry the organization's
 * time: the refresh asks for it.
 */
export function usageIngestedHandler(deps: WalletDeps) {
  const refreshes = new Coalescer();
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, USAGE_SUBJECTS)) return;
    // most organizations hold no wallet: one keyed read (remembered once true), nothing decoded
    if (!(await deps.wallets.holdsWallets(envelope.organization_id))) return;
    const subscriptions = [...new Set(eventData(envelope).events.map((e) => e.external_subscription_id))];
    if (subscriptions.length === 0) return;
    const frozen = envelope.frozen_time ? new Date(envelope.frozen_time) : undefined;
    await refreshes.request(`${envelope.organization_id}|${envelope.frozen_time ?? ""}`, subscriptions, (all) =>
      refreshOngoingUsage(deps, envelope.organization_id, { externalSubscriptionIds: all }, frozen),
    );
  };
}
