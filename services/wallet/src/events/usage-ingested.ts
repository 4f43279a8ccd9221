import { Subjects, type Envelope } from "@billing/bus";
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
    const subscriptions = [...new Set(eventData(envelope).events.map((e) => e.external_subscription_id))];
    if (subscriptions.length === 0) return;
    const frozen = envelope.frozen_time ? new Date(envelope.frozen_time) : undefined;
    await refreshes.request(`${envelope.organization_id}|${envelope.frozen_time ?? ""}`, subscriptions, (all) =>
      refreshOngoingUsage(deps, envelope.organization_id, { externalSubscriptionIds: all }, frozen));
  };
}

/**
 * Merges requests of the same key: one that arrives while a run for its key is under way joins
 * the next run (with every other request that arrives meanwhile), and is answered when a run that
 * started after it has ended. So a burst of batches costs a refresh per refresh-time, not per
 * batch, and a message is acknowledged only once a refresh that saw it is done.
 */
class Coalescer {
  private readonly keys = new Map<string, { running: boolean; next: { items: Set<string>; waiters: Array<(err?: unknown) => void> } | null }>();

  request(key: string, items: readonly string[], run: (items: string[]) => Promise<void>): Promise<void> {
    const state = this.keys.get(key) ?? { running: false, next: null };
    this.keys.set(key, state);
    state.next ??= { items: new Set(), waiters: [] };
    for (const item of items) state.next.items.add(item);
    const answered = new Promise<void>((resolve, reject) => state.next!.waiters.push((err) => (err ? reject(err) : resolve())));
    if (!state.running) this.start(key, run);
    return answered;
  }

  private start(key: string, run: (items: string[]) => Promise<void>) {
    const state = this.keys.get(key)!;
    const batch = state.next!;
    state.next = null;
    state.running = true;
    run([...batch.items]).then(() => batch.waiters.forEach((w) => w()), (err) => batch.waiters.forEach((w) => w(err))).finally(() => {
      state.running = false;
      if (state.next) this.start(key, run);
      else this.keys.delete(key);
    });
  }
}
