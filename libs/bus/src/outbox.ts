import type { Logger } from "@billing/logger";
import { gauge } from "@billing/telemetry";
import type { Bus } from "./connection";
import type { Envelope } from "./envelope";
import { publishEnvelope } from "./publish";

/**
 * Where events wait until JetStream has them. The owning service writes each
 * event into the same document as the change it describes (one atomic write),
 * so an acknowledged change can never lose its event.
 */
export interface OutboxStore {
  /** Names the store in the metrics (its collection); "outbox" when absent. */
  readonly name?: string;
  pending(limit: number): Promise<Array<{ documentId: string; envelope: Envelope }>>;
  /** Clears these events from their documents' outboxes (one write for them all). */
  markPublished(published: ReadonlyMap<string, readonly string[]>): Promise<void>;
}

/**
 * Publishes the events of some documents: all sent at once (one connection keeps each
 * document's order in the stream), then every acknowledged one cleared from its outbox, one write
 * for them all. What was not acknowledged stays in the outbox for the relay.
 */
async function publishDocumentEvents(
  bus: Bus,
  store: OutboxStore,
  byDocument: ReadonlyMap<string, readonly Envelope[]>,
) {
  const sent = [...byDocument].flatMap(([documentId, envelopes]) =>
    envelopes.map((envelope) => ({ documentId, envelope })),
  );
  const outcomes = await Promise.allSettled(sent.map(({ envelope }) => publishEnvelope(bus.js, envelope)));
  const published = new Map<string, string[]>();
  sent.forEach(({ documentId, envelope }, i) => {
    if (outcomes[i]!.status === "fulfilled")
      published.set(documentId, [...(published.get(documentId) ?? []), envelope.id]);
  });
  if (published.size > 0) await store.markPublished(published);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  return { failure: failed?.reason as unknown };
}

/** Publishes a change's events now and clears them from the outbox; the relay retries whatever fails. */
export async function publishFromOutbox(
  bus: Bus,
  store: OutboxStore,
  documentId: string,
  events: Envelope | readonly Envelope[],
  logger: Logger,
) {
  const envelopes = Array.isArray(events) ? (events as readonly Envelope[]) : [events as Envelope];
  await publishManyFromOutbox(bus, store, new Map([[documentId, envelopes]]), logger);
}

/** The same for the changes of many documents at once (one clearing write). */
export async function publishManyFromOutbox(
  bus: Bus,
  store: OutboxStore,
  byDocument: ReadonlyMap<string, readonly Envelope[]>,
  logger: Logger,
) {
  const nonEmpty = new Map([...byDocument].filter(([, envelopes]) => envelopes.length > 0));
  if (nonEmpty.size === 0) return;
  try {
    const { failure } = await publishDocumentEvents(bus, store, nonEmpty);
    if (failure) logger.warn({ err: failure, documents: nonEmpty.size }, "events left in outbox for the relay");
  } catch (err) {
    logger.warn({ err, documents: nonEmpty.size }, "events left in outbox for the relay");
  }
}

export interface OutboxRelay {
  stop(): void;
  /** Publishes everything pending now (a test clock step waits for its events to be out); throws if it cannot. */
  flush(): Promise<void>;
}

/** Documents read per store and sweep. */
const SWEEP_DOCUMENTS = 500;
/**
 * The events each sweep finds still in a store's outbox (a document's events are published as it
 * is written, so a backlog means NATS refused or a process died in between; capped at what one
 * sweep reads, 500 documents).
 */
const outboxBacklog = gauge(
  "outbox_pending_events",
  "Events found waiting in an outbox by the relay's last sweep, per store",
  ["store"],
);

/** Sweeps the outbox on an interval and republishes what is still pending. */
export function startOutboxRelay(bus: Bus, stores: OutboxStore[], logger: Logger, intervalMs = 2000): OutboxRelay {
  let running: Promise<void> | null = null;
  const publishPending = async () => {
    for (const store of stores) {
      const byDocument = new Map<string, Envelope[]>();
      const pending = await store.pending(SWEEP_DOCUMENTS);
      outboxBacklog.set({ store: store.name ?? "outbox" }, pending.length);
      for (const { documentId, envelope } of pending)
        byDocument.set(documentId, [...(byDocument.get(documentId) ?? []), envelope]);
      if (byDocument.size === 0) continue;
      const { failure } = await publishDocumentEvents(bus, store, byDocument);
      if (failure) throw failure;
    }
  };
  const sweep = async () => {
    if (running) return;
    running = publishPending().catch((err) => logger.warn({ err }, "outbox sweep failed; will retry"));
    try {
      await running;
    } finally {
      running = null;
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), intervalMs); // sweep never rejects: a failed pass is logged and retried
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    flush: async () => {
      await running;
      await publishPending();
    },
  };
}
