import type { NatsConnection } from "nats";

/** Collects, from now on, the envelopes of one subject that belong to one organization. */
export function collectEvents<E extends { organization_id: string }>(
  nc: NatsConnection,
  subject: string,
  organizationId: string,
) {
  const received: E[] = [];
  const sub = nc.subscribe(subject);
  void (async () => {
    for await (const m of sub) {
      const e = m.json<E>();
      if (e.organization_id === organizationId) received.push(e);
    }
  })();
  return { received, stop: () => sub.unsubscribe() };
}
