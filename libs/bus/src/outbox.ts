import type { Logger } from "@billing/logger";
import type { Bus } from "./connection";
import type { Envelope } from "./envelope";
import { publishEnvelope } from "./publish";

/**
 * Where events wait until JetStream has them. The owning service writes each
 * event into the same document as the change it describes (one atomic write),
 * so an acknowledged change can never lose its event.
 */
export interface OutboxStore {
  pending(limit: number): Promise<Array<{ documentId: string; envelope: Envelope }>>;
  /** Clears these events of one document from its outbox (one write). */
  markPublished(documentId: string, envelopeIds: string[]): Promise<void>;
}

/**
 * Publishes the events of one document: all sent at once (one connection keeps their order in the
 * stream), then every acknowledged one cleared from the outbox in one write. Resolves with the ids
 * published; what was not acknowledged stays in the outbox for the relay.
 */
async function publishDocumentEvents(bus: Bus, store: OutboxStore, documentId: string, envelopes: readonly Envelope[]) {
  const outcomes = await Promise.allSettled(envelopes.map((envelope) => publishEnvelope(bus.js, envelope)));
  const published = envelopes.filter((_, i) => outcomes[i]!.status === "fulfilled").map((e) => e.id);
  if (published.length > 0) await store.markPublished(documentId, published);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  return { published, failure: failed?.reason as unknown };
}

/** Publishes a change's events now and clears them from the outbox; the relay retries whatever fails. */
export async function publishFromOutbox(bus: Bus, store: OutboxStore, documentId: string, events: Envelope | readonly Envelope[], logger: Logger) {
  const envelopes = Array.isArray(events) ? (events as readonly Envelope[]) : [events as Envelope];
  if (envelopes.length === 0) return;
  try {
    const { failure } = await publishDocumentEvents(bus, store, documentId, envelopes);
    if (failure) logger.warn({ err: failure, document_id: documentId }, "events left in outbox for the relay");
  } catch (err) {
    logger.warn({ err, document_id: documentId }, "events left in outbox for the relay");
  }
}

export interface OutboxRelay {
  stop(): void;
  /** Publishes everything pending now (a test clock step waits for its events to be out); throws if it cannot. */
  flush(): Promise<void>;
}

/** Sweeps the outbox on an interval and republishes what is still pending. */
export function startOutboxRelay(bus: Bus, stores: OutboxStore[], logger: Logger, intervalMs = 2000): OutboxRelay {
  let running: Promise<void> | null = null;
  const publishPending = async () => {
    for (const store of stores) {
      const byDocument = new Map<string, Envelope[]>();
      for (const { documentId, envelope } of await store.pending(500)) byDocument.set(documentId, [...(byDocument.get(documentId) ?? []), envelope]);
      for (const [documentId, envelopes] of byDocument) {
        const { failure } = await publishDocumentEvents(bus, store, documentId, envelopes);
        if (failure) throw failure;
      }
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
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    flush: async () => {
      await running;
      await publishPending();
    },
  };
}
