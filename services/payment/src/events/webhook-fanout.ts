import type { Envelope } from "@billing/bus";
import { eventData, type Subject } from "@billing/contracts";
import { subscribes } from "../domain/webhook-endpoint";
import { webhookEventsOf, webhookTypesOf } from "../domain/webhook-events";
import type { WebhookDeps } from "../use-cases/webhooks/deps";
import { fanOutEvents } from "../use-cases/webhooks/fan-out-event";

/**
 * Every stream's events that become webhooks: each is stored as its deliveries before it is
 * acknowledged. The events of one object are fanned out one after another in stream order (the
 * consumer handles several objects at once), so its deliveries are sent in that order. A message
 * of many objects (pay-in-advance fees: each a new object, never in another message) is fanned
 * out at once. An event no endpoint of its organization subscribes to is not even parsed (most
 * events of most organizations: a burst of pay-in-advance fees costs the service next to nothing).
 */
/** Whether some endpoint of the organization subscribes to a webhook the subject's events can become (the directory is cached). */
export async function someEndpointWants(deps: WebhookDeps, subject: string, organizationId: string): Promise<boolean> {
  const types = webhookTypesOf(subject);
  if (types.length === 0) return false;
  return (await deps.directory.of(organizationId)).some((endpoint) => types.some((type) => subscribes(endpoint, type)));
}

export function webhookFanoutHandler(deps: WebhookDeps) {
  const chains = new Map<string, Promise<unknown>>();
  return async (envelope: Envelope, msg: { seq: number }): Promise<void> => {
    if (!(await someEndpointWants(deps, envelope.type, envelope.organization_id))) return;
    const data = eventData(envelope as Envelope & { type: Subject });
    const events = webhookEventsOf(envelope.type, data);
    if (events.length === 0) return;
    const fanOut = () =>
      fanOutEvents(deps, { organizationId: envelope.organization_id, eventId: envelope.id, events, seq: msg.seq });
    if (events.length > 1) {
      await fanOut();
      return;
    }
    const key = `${events[0]!.objectType}|${events[0]!.objectId}`;
    const before = chains.get(key);
    const mine = (before ?? Promise.resolve()).catch(() => undefined).then(fanOut);
    chains.set(key, mine);
    try {
      await mine;
    } finally {
      if (chains.get(key) === mine) chains.delete(key);
    }
  };
}
