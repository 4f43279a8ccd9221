import { derivedUuid } from "@billing/bus";
import type { WebhookDelivery } from "../../domain/webhook-delivery";
import { subscribes } from "../../domain/webhook-endpoint";
import type { WebhookEvent } from "../../domain/webhook-events";
import type { WebhookDeps } from "./deps";

/**
 * One domain event becomes one stored delivery per endpoint of its organization that subscribes
 * to its type, all with the same payload: Lago's `{webhook_type, object_type, organization_id,
 * <object_type>: object}`, the object as the API returns it. Delivery ids derive from the event
 * and the endpoint, so a redelivered event stores nothing twice. The deliveries this process can
 * take are stored leased to it and sent at once; the others wait in the database for the sweeper.
 */
export async function fanOutEvent(
  deps: WebhookDeps,
  input: { organizationId: string; eventId: string; event: WebhookEvent; seq: number },
): Promise<number> {
  return fanOutEvents(deps, {
    organizationId: input.organizationId,
    eventId: input.eventId,
    events: [input.event],
    seq: input.seq,
  });
}

/**
 * The same for the webhooks of one message (several when it carries many objects: a message of
 * pay-in-advance fees): the organization's endpoints read once, the deliveries of all stored with
 * one write. Each webhook's deliveries derive from its own event id (derived from `event.eventName`,
 * else the message's id).
 */
export async function fanOutEvents(
  deps: WebhookDeps,
  input: { organizationId: string; eventId: string; events: readonly WebhookEvent[]; seq: number },
): Promise<number> {
  const { organizationId } = input;
  const endpoints = await deps.directory.of(organizationId);
  const targets = input.events
    .map((event) => ({ event, endpoints: endpoints.filter((e) => subscribes(e, event.webhookType)) }))
    .filter((t) => t.endpoints.length > 0);
  if (targets.length === 0) return 0;
  const now = new Date();
  const deliveries: WebhookDelivery[] = (
    await Promise.all(
      targets.map(async ({ event, endpoints: mine }) => {
        const object = (await deps.objects.render(organizationId, event.ref)) ?? event.view;
        const payload = JSON.stringify({
          webhook_type: event.webhookType,
          object_type: event.objectType,
          organization_id: organizationId,
          [event.objectType]: object,
        });
        const eventId = event.eventName ? derivedUuid(event.eventName) : input.eventId;
        return mine.map((endpoint): WebhookDelivery => ({
          id: derivedUuid(`webhook|${eventId}|${endpoint.id}`),
          organization_id: organizationId,
          endpoint_id: endpoint.id,
          endpoint: endpoint.webhook_url,
          webhook_type: event.webhookType,
          object_type: event.objectType,
          object_id: event.objectId,
          order_key: `${endpoint.id}|${event.objectType}|${event.objectId}`,
          seq: input.seq,
          payload,
          status: "pending",
          retries: 0,
          http_status: null,
          response: null,
          last_retried_at: null,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        }));
      }),
    )
  ).flat();
  const { owner, leaseMs } = deps.dispatcher.settings;
  const leased = new Date(now.getTime() + leaseMs);
  const entries = deliveries.map((delivery) =>
    deps.dispatcher.accepts(delivery.endpoint_id)
      ? { delivery, owner, leaseUntil: leased }
      : { delivery, owner: null, leaseUntil: new Date(0) },
  );
  const stored = await deps.inserter.insert(entries);
  deps.dispatcher.enqueue(entries.filter((e) => e.owner !== null && stored.has(e.delivery.id)).map((e) => e.delivery));
  return deliveries.length;
}
