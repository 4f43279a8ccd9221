import type { Connection } from "mongoose";
import { ensureStream, runConsumer, Streams, type Bus } from "@billing/bus";
import type { Logger } from "@billing/logger";
import type { CatalogCopies } from "../../domain/read-copies";
import { catalogEventApplier, COPIED_SUBJECTS } from "./apply-catalog-event";
import { copyStores, loadCopies } from "../../persistence/read-copies/copy-stores";
import { MemoryCopies } from "../../persistence/read-copies/memory-copies";

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
  stop(): Promise<void>;
}

export const durableName = (prefix?: string) => (prefix ? `${prefix}_usage_catalog_copies` : "usage_catalog_copies");

/**
 * Loads the copies stored in MongoDB into memory, then follows the catalog's events with a
 * durable consumer (it resumes where it stopped; replays are harmless).
 */
export async function startReadCopies(options: ReadCopiesOptions): Promise<ReadCopies> {
  const stores = copyStores(options.connection);
  const memory = new MemoryCopies();
  await loadCopies(stores, memory);
  options.logger.info(memory.counts(), "catalog read copies loaded");
  // The catalog's stream may not exist yet when the usage service starts first.
  await ensureStream(options.bus.jsm, Streams.catalog, options.replicas);
  const consumer = await runConsumer({
    bus: options.bus,
    stream: Streams.catalog.name,
    durable: durableName(options.durablePrefix),
    filterSubjects: COPIED_SUBJECTS,
    logger: options.logger.child({ consumer: "catalog-copies" }),
    handler: catalogEventApplier(stores, memory),
    concurrency: options.concurrency ?? 16,
  });
  return { copies: memory, memory, stop: () => consumer.stop() };
}
