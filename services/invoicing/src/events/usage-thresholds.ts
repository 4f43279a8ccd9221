import type { Envelope } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import { eventData, isEvent } from "@billing/contracts";
import type { InvoicingDeps } from "../use-cases/deps";
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
export function usageThresholdsHandler(deps: InvoicingDeps) {
  const checks = new Coalescer();
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, USAGE_SUBJECTS)) return;
    const subscriptions = [...new Set(eventData(envelope).events.map((e) => e.external_subscription_id))];
    if (subscriptions.length === 0) return;
    const organizationId = envelope.organization_id;
    const frozen = envelope.frozen_time ? new Date(envelope.frozen_time) : ((await deps.testClocks?.frozenTime(organizationId)) ?? null);
    await checks.request(`${organizationId}|${frozen?.toISOString() ?? ""}`, subscriptions, async (all) => {
      const check = () => checkUsageThresholds(deps, organizationId, all, { sandbox: frozen !== null });
      await (frozen ? atFrozenTime(frozen, check) : check());
    });
  };
}

/** One run at a time per key; requests arriving meanwhile are merged into the next run and answered by it. */
class Coalescer {
  private readonly state = new Map<string, { running: boolean; next: { items: Set<string>; done: Array<(err?: unknown) => void> } | null }>();

  request(key: string, items: readonly string[], run: (items: string[]) => Promise<void>): Promise<void> {
    const s = this.state.get(key) ?? { running: false, next: null };
    this.state.set(key, s);
    s.next ??= { items: new Set(), done: [] };
    items.forEach((i) => s.next!.items.add(i));
    const answered = new Promise<void>((resolve, reject) => s.next!.done.push((err) => (err ? reject(err) : resolve())));
    if (!s.running) this.start(key, run);
    return answered;
  }

  private start(key: string, run: (items: string[]) => Promise<void>): void {
    const s = this.state.get(key)!;
    const batch = s.next!;
    s.next = null;
    s.running = true;
    run([...batch.items])
      .then(() => batch.done.forEach((d) => d()), (err) => batch.done.forEach((d) => d(err)))
      .finally(() => {
        s.running = false;
        if (s.next) this.start(key, run);
        else this.state.delete(key);
      });
  }
}
