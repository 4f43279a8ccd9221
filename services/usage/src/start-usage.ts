import type { Connection } from "mongoose";
import { ensureStream, ingestSubject, Streams, type Bus } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { RpcHandler } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { storedUsageReader } from "./aggregate/usage-reader";
import type { UsageConfig } from "./config";
import type { CatalogCopies } from "./domain/read-copies";
import type { UsageReader } from "./domain/usage-event";
import { usageHandlers } from "./grpc/usage-handlers";
import { BloomFilter } from "./ingest/bloom-filter";
import { DedupWindow } from "./ingest/dedup-window";
import { GroupCommit } from "./ingest/group-commit";
import { ensureIngestStream, lastSequence } from "./ingest/ingest-stream";
import { createCollections, usageCollections } from "./persistence/collections";
import { loadStoredKeys, storedAmong } from "./persistence/stored-keys";
import { IngestApplier } from "./store/ingest-applier";
import { IngestCursor } from "./store/ingest-cursor";
import { LocalBatches } from "./store/local-batches";

export interface UsageParts {
  handlers: Record<string, RpcHandler>;
  reader: UsageReader;
  stop(): Promise<void>;
}

/**
 * Ingestion, storage and aggregation, ready to serve: the Bloom filter holds every stored key
 * and the ingest stream's backlog is stored (so a duplicate of anything acknowledged before a
 * crash is recognised) before this resolves — that is, before the gRPC server answers.
 */
export async function startUsage(ctx: {
  config: UsageConfig & { JETSTREAM_REPLICAS: number };
  connection: Connection;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  copies: CatalogCopies;
}): Promise<UsageParts> {
  const { config, bus, logger } = ctx;
  await createCollections(ctx.connection);
  const collections = usageCollections(ctx.connection);
  const subject = ingestSubject(config.DURABLE_PREFIX);
  const stream = await ensureIngestStream(bus.jsm, config.JETSTREAM_REPLICAS);
  // where `billing.usage.event.ingested` goes (runBackendService creates it too)
  await ensureStream(bus.jsm, Streams.usage, config.JETSTREAM_REPLICAS);

  const bloom = new BloomFilter(config.BLOOM_CAPACITY, config.BLOOM_FP_RATE);
  const window = new DedupWindow(config.DEDUP_WINDOW_MS);
  const local = new LocalBatches(config.STORE_LOCAL_EVENTS);
  const started = Date.now();
  const loaded = await loadStoredKeys(collections, bloom);
  /** when the last ingest request arrived: storage yields to ingestion while they keep coming */
  const ingestState = { inFlight: 0, lastRequestAt: -Infinity };
  const yieldBacklog = Math.min(config.STORE_YIELD_BACKLOG_EVENTS, config.INGEST_MAX_BACKLOG_EVENTS);
  const yieldToIngest = () =>
    window.awaitingStorage < yieldBacklog && (ingestState.inFlight > 0 || performance.now() - ingestState.lastRequestAt < config.STORE_YIELD_IDLE_MS);
  const applier = new IngestApplier(
    {
      collections,
      bus,
      clock: ctx.clock,
      fieldOf: (org, code) => ctx.copies.metricByCode(org, code)?.field_name ?? null,
      onStored: (keys) => {
        for (const key of keys) bloom.add(key);
        window.stored(keys);
      },
    },
    { stream, subject, cursor: new IngestCursor(collections, subject), logger: logger.child({ part: "ingest-store" }), unitEvents: config.STORE_UNIT_EVENTS, lingerMs: config.STORE_LINGER_MS, local, yieldToIngest },
  );
  await applier.start();
  const backlog = await lastSequence(bus.jsm, stream, subject);
  await applier.appliedThrough(backlog);
  logger.info({ stored_keys: loaded, drained_through: backlog, ms: Date.now() - started }, "usage storage ready");

  const maxPayload = bus.nc.info?.max_payload ?? 1024 * 1024;
  const commit = new GroupCommit(
    {
      publish: async (data, batchId) => {
        const options = { msgID: batchId, timeout: config.INGEST_PUBLISH_TIMEOUT_MS };
        // one retry with the same msgID: the stream stores it once
        await bus.js.publish(subject, data, options).catch(() => bus.js.publish(subject, data, options));
      },
      keep: (batchId, data, events) => local.add(batchId, data, events, Date.now()),
    },
    { maxFlushes: config.INGEST_MAX_FLUSHES, maxBytes: Math.min(config.INGEST_FLUSH_MAX_BYTES, maxPayload - 1024) },
  );
  const sweep = setInterval(() => {
    window.sweep(ctx.clock.now().getTime());
    local.sweep(Date.now() - config.DEDUP_WINDOW_MS);
  }, 30_000);
  sweep.unref();

  const reader = storedUsageReader(collections);
  const handlers = usageHandlers({
    ingest: {
      window,
      bloom,
      storedAmong: (keys) => storedAmong(collections, keys),
      commit,
      clock: ctx.clock,
      copies: ctx.copies,
      limits: { maxInFlightEvents: config.INGEST_MAX_IN_FLIGHT_EVENTS, maxBacklogEvents: config.INGEST_MAX_BACKLOG_EVENTS },
      state: ingestState,
    },
    aggregate: { collections, reader, copies: ctx.copies },
    logger: logger.child({ part: "ingest" }),
  });
  return {
    handlers,
    reader,
    stop: async () => {
      clearInterval(sweep);
      await applier.stop();
    },
  };
}
