import { DeliverPolicy } from "nats";
import { decodeEnvelope, type Bus } from "@billing/bus";
import type { Logger } from "@billing/logger";
import type { MemoryCopies } from "../../persistence/read-copies/memory-copies";
import { applyToMemory } from "./apply-catalog-event";

export interface MemoryFollower {
  /**
   * Resolves true once this process's memory holds every copied catalog event the stream held when
   * it was called (false after `timeoutMs`): a subscription created before an event was ingested is
   * then known here.
   */
  caughtUp(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * Keeps this process's memory copies in step with the catalog's stream. The durable consumer of the
 * read copies is shared by the service's replicas (each event is applied to MongoDB once, by one of
 * them), so on its own it would leave every other replica's memory behind. Each process therefore
 * also follows the stream with an ordered (ephemeral) consumer of its own, applying to memory only,
 * from just after the durable's ack floor read before the copies were loaded from MongoDB: what the
 * durable had applied is in what was loaded, and the rest comes through here. Applying an event
 * twice, or late, changes nothing (memory keeps the newest version).
 */
export async function followIntoMemory(options: {
  bus: Bus;
  stream: string;
  subjects: string[];
  memory: MemoryCopies;
  logger: Logger;
  startSeq: number;
}): Promise<MemoryFollower> {
  const { bus, stream, memory, logger } = options;
  const consumer = await bus.js.consumers.get(stream, {
    filterSubjects: options.subjects,
    // (an ordered consumer with DeliverPolicy.All never starts in nats.js 2.29: sequence 1 is "all")
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: Math.max(options.startSeq, 1),
  });
  let applied = 0;
  let stopped = false;
  let messages = await consumer.consume();
  // the ordered consumer recreates itself on a gap or a reconnection; should its iterator end anyway
  // (the stream deleted and made again), it is consumed again from where it was, after a second
  const loop = (async () => {
    while (!stopped) {
      try {
        for await (const msg of messages) {
          try {
            applyToMemory(memory, decodeEnvelope(msg.data));
          } catch (err) {
            // a malformed event: the durable consumer terminates it; memory skips it
            logger.warn({ err, seq: msg.seq, subject: msg.subject }, "catalog event not applied to memory");
          }
          applied = msg.seq;
          if (stopped) break;
        }
      } catch (err) {
        logger.warn({ err }, "catalog copies' memory follower interrupted");
      }
      if (stopped) break;
      await new Promise((r) => setTimeout(r, 1000));
      if (stopped) break;
      messages = await consumer.consume().catch((err: unknown) => {
        logger.warn({ err }, "catalog copies' memory follower could not resume; trying again");
        return messages;
      });
    }
  })();

  return {
    async caughtUp(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          const info = await consumer.info(false);
          // nothing left in the stream for it, and what was delivered (nothing, or up to a sequence) applied
          if (info.num_pending === 0 && (info.delivered.consumer_seq === 0 || info.delivered.stream_seq <= applied))
            return true;
        } catch {
          // the ordered consumer is being recreated (NATS reconnect): ask again
        }
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      stopped = true;
      await messages.close().catch(() => undefined);
      await loop.catch(() => undefined);
    },
  };
}
