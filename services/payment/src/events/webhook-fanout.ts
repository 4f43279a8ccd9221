import type { Envelope } from "@billing/bus";
import { eventData, type Subject } from "@billing/contracts";
import { webhookEventOf } from "../domain/webhook-events";
import type { WebhookDeps } from "../use-cases/webhooks/deps";
import { fanOutEvent } from "../use-cases/webhooks/fan-out-event";

/**
 * Every stream's events that become webhooks: each is stored as its deliveries before it is
 * acknowledged. The events of one object are fanned out one after another in stream order (the
 * consumer handles several objects at once), so its deliveries are sent in that order.
 */
export function webhookFanoutHandler(deps: WebhookDeps) {
  const chains = new Map<string, Promise<unknown>>();
  return async (envelope: Envelope, msg: { seq: number }): Promise<void> => {
    const data = eventData(envelope as Envelope & { type: Subject });
    const event = webhookEventOf(envelope.type, data as Record<string, any>);
    if (!event) return;
    const key = `${event.objectType}|${event.objectId}`;
    const before = chains.get(key);
    const mine = (before ?? Promise.resolve()).catch(() => undefined)
      .then(() => fanOutEvent(deps, { organizationId: envelope.organization_id, eventId: envelope.id, event, seq: msg.seq }));
    chains.set(key, mine);
    try {
      await mine;
    } finally {
      if (chains.get(key) === mine) chains.delete(key);
    }
  };
}
