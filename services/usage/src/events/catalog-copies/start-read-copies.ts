import type { Connection } from "mongoose";
import { ensureStream, runConsumer, Streams, type Bus } from "@billing/bus";
import type { Logger } from "@billing/logger";
import type { CatalogCopies } from "../../domain/read-copies";
import { catalogEventApplier, COPIED_SUBJECTS } from "./apply-catalog-event";
import { copyStores, loadCopies } from "../../persistence/read-copies/copy-stores";
import { MemoryCopies } from "../../persistence/read-copies/memory-copies";
import { followIntoMemory } from "./memory-follower";

export interface ReadCopiesOptions {
  connection: Connection;
  bus: Bus;
  logger: Logger;
  /** DURABLE_PREFIX: several platforms sharing one NATS each keep their own consumer. */
  durablePrefix?: string;
  concurrency?: number;
  /** JETSTREAM_REPLICAS, should this service create the catalog's stream. */
  replicas?: number;
}

export interface ReadCopies {
  copies: CatalogCopies;
  memory: MemoryCopies;
  /** See MemoryFollower.caughtUp: this process's memory holds what the catalog's stream held when asked. */
  caughtUp(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

export const durableName = (prefix?: string) => (prefix ? `${prefix}_usage_catalog_copies` : "usage_catalog_copies");

/**
 * Loads the copies stored in MongoDB into memory, then follows the catalog's events with a
 * durable consumer shared by the replicas (it resumes where it stopped; replays are harmless),
 * which stores them, and with an ordered consumer of this process, which keeps its memory in step
 * whichever replica stored them (memory-follower.ts).
 */
export async function startReadCopies(options: ReadCopiesOptions): Promise<ReadCopies> {
  const stores = copyStores(options.connection);
  const memory = new MemoryCopies();
  // The catalog's stream may not exist yet when the usage service starts first.
  await ensureStream(options.bus.jsm, Streams.catalog, options.replicas);
  const durable = durableName(options.durablePrefix);
  // what the shared durable has applied to MongoDB, read before loading: memory follows from there
  const ackFloor = await options.bus.jsm.consumers.info(Streams.catalog.name, durable).then(
    (i) => i.ack_floor.stream_seq,
    () => 0,
  );
  await loadCopies(stores, memory);
  options.logger.info(memory.counts(), "catalog read copies loaded");
  const follower = await followIntoMemory({
    bus: options.bus,
    stream: Streams.catalog.name,
    subjects: COPIED_SUBJECTS,
    memory,
    logger: options.logger.child({ consumer: "catalog-copies-memory" }),
    startSeq: ackFloor + 1,
  });
  const consumer = await runConsumer({
    bus: options.bus,
    stream: Streams.catalog.name,
    durable,
    filterSubjects: COPIED_SUBJECTS,
    logger: options.logger.child({ consumer: "catalog-copies" }),
    handler: catalogEventApplier(stores, memory),
    concurrency: options.concurrency ?? 16,
  });
  return {
    copies: memory,
    memory,
    caughtUp: (timeoutMs) => follower.caughtUp(timeoutMs),
    stop: async () => {
      await consumer.stop();
      await follower.stop();
    },
  };
}
