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
  markPublished(documentId: string, envelopeId: string): Promise<void>;
}

/** Publishes one event now and clears it from the outbox; the relay retries whatever fails. */
export async function publishFromOutbox(bus: Bus, store: OutboxStore, documentId: string, envelope: Envelope, logger: Logger) {
  try {
    await publishEnvelope(bus.js, envelope);
    await store.markPublished(documentId, envelope.id);
  } catch (err) {
    logger.warn({ err, event_id: envelope.id }, "event left in outbox for the relay");
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
      for (const { documentId, envelope } of await store.pending(500)) {
        await publishEnvelope(bus.js, envelope);
        await store.markPublished(documentId, envelope.id);
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
