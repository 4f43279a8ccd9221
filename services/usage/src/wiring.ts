import type { Connection } from "mongoose";
import { ensureStream, Streams, type Bus } from "@billing/bus";
import type { Clock } from "@billing/clock";
import { Rpc } from "@billing/contracts";
import { bind, type ServiceBinding } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { defineService, type BackendConfig } from "@billing/runtime";
import { usageConfigSchema, type UsageConfig } from "./config";
import type { CatalogCopies } from "./domain/read-copies";
import type { UsageReader } from "./domain/usage-event";
import { startReadCopies } from "./events/catalog-copies/start-read-copies";
import { chargeUsageHandlers } from "./grpc/charge-usage-handlers";
import { advanceFeeHandlers } from "./grpc/advance-fee-handlers";
import { startAdvanceAnswersSweep } from "./schedule/advance-answers-sweep";
import { AdvanceStore } from "./persistence/advance-store";
import { usageAuditHandlers } from "./grpc/usage-audit-handlers";
import { estimateHandlers } from "./grpc/estimate-handlers";
import { usageHandlers } from "./grpc/usage-handlers";
import { createCollections, usageCollections } from "./persistence/collections";
import { loadStoredKeys, storedAmong } from "./persistence/stored-keys";
import { startDedupSweep } from "./schedule/dedup-sweep";
import { storedUsageReader, type StoredUsageReader } from "./use-cases/aggregate/usage-reader";
import { CachedUsageReader } from "./use-cases/estimate/cached-usage-reader";
import { BloomFilter } from "./use-cases/ingest/bloom-filter";
import { DedupWindow } from "./use-cases/ingest/dedup-window";
import { GroupCommit } from "./use-cases/ingest/group-commit";
import { ensureIngestStream, ingestSubject, lastSequence } from "./use-cases/ingest/ingest-stream";
import { ingestPublisher } from "./use-cases/ingest/publish-ingest-message";
import { IngestActivity } from "./use-cases/store/ingest-activity";
import { IngestApplier } from "./use-cases/store/ingest-applier";
import { IngestCursor } from "./use-cases/store/ingest-cursor";
import { LocalBatches } from "./use-cases/store/local-batches";

export interface UsageParts {
  handlers: ReturnType<typeof usageHandlers>;
  reader: StoredUsageReader;
  /** Resolves once every event the ingest stream acknowledged before the call is stored. */
  storedThroughNow(): Promise<void>;
  /** the same wait, answering the ingest stream sequence storage is then complete through (charge snapshots keep it for audits) */
  storedThroughSeq(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Ingestion, storage and aggregation, ready to serve: the Bloom filter holds every stored key
 * and the ingest stream's backlog is stored (so a duplicate of anything acknowledged before a
 * crash is recognised) before this resolves — that is, before the gRPC server answers. The
 * service and its integration tests wire it the same way.
 */
export async function wireUsage(ctx: {
  config: UsageConfig & Pick<BackendConfig, "JETSTREAM_REPLICAS">;
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
  // where `billing.usage.event.ingested` goes (runService creates it too)
  await ensureStream(bus.jsm, Streams.usage, config.JETSTREAM_REPLICAS);

  const bloom = new BloomFilter(config.BLOOM_CAPACITY, config.BLOOM_FP_RATE);
  const window = new DedupWindow(config.DEDUP_WINDOW_MS);
  const local = new LocalBatches(config.STORE_LOCAL_EVENTS);
  const started = performance.now();
  const loaded = await loadStoredKeys(collections, bloom);
  const activity = new IngestActivity({
    yieldBacklog: Math.min(config.STORE_YIELD_BACKLOG_EVENTS, config.INGEST_MAX_BACKLOG_EVENTS),
    idleMs: config.STORE_YIELD_IDLE_MS,
    maxWaitMs: config.STORE_YIELD_MAX_WAIT_MS,
  });
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
    {
      stream,
      subject,
      cursor: new IngestCursor(collections, subject),
      logger: logger.child({ part: "ingest-store" }),
      unitEvents: config.STORE_UNIT_EVENTS,
      lingerMs: config.STORE_LINGER_MS,
      local,
      yieldToIngest: (oldestWaitMs) => activity.storageShouldYield(window.awaitingStorage, oldestWaitMs),
    },
  );
  await applier.start();
  const backlog = await lastSequence(bus.jsm, stream, subject);
  await applier.appliedThrough(backlog);
  logger.info(
    { stored_keys: loaded, drained_through: backlog, ms: Math.round(performance.now() - started) },
    "usage storage ready",
  );

  const maxPayload = bus.nc.info?.max_payload ?? 1024 * 1024;
  const commit = new GroupCommit(
    {
      publish: ingestPublisher(bus, subject, config.INGEST_PUBLISH_TIMEOUT_MS),
      keep: (batchId, data, events) => local.add(batchId, data, events),
    },
    { maxFlushes: config.INGEST_MAX_FLUSHES, maxBytes: Math.min(config.INGEST_FLUSH_MAX_BYTES, maxPayload - 1024) },
  );
  const sweep = startDedupSweep({ window, local, windowMs: config.DEDUP_WINDOW_MS, logger });

  const reader = storedUsageReader(collections);
  const handlers = usageHandlers({
    ingest: {
      window,
      bloom,
      storedAmong: (keys) => storedAmong(collections, keys),
      commit,
      clock: ctx.clock,
      copies: ctx.copies,
      limits: {
        maxInFlightEvents: config.INGEST_MAX_IN_FLIGHT_EVENTS,
        maxBacklogEvents: config.INGEST_MAX_BACKLOG_EVENTS,
      },
      state: activity,
    },
    aggregate: { collections, reader, copies: ctx.copies },
    logger: logger.child({ part: "ingest" }),
  });
  return {
    handlers,
    reader,
    storedThroughNow: async () => applier.appliedThrough(await lastSequence(bus.jsm, stream, subject)),
    storedThroughSeq: async () => {
      await applier.appliedThrough(await lastSequence(bus.jsm, stream, subject));
      // what storage has applied, in stream order (the subject's last message may be purged once stored: then lastSequence is 0)
      return applier.applied;
    },
    stop: async () => {
      await sweep.stop();
      await applier.stop();
    },
  };
}

/** The usage service owns usage events and their aggregates, with read copies of the catalog. */
export const usageService = defineService({
  name: "usage",
  config: usageConfigSchema,
  wire: async ({ config, connection, bus, clock, logger }) => {
    // Catalog read copies (metrics, subscriptions with their plans): loaded from MongoDB, then fed by the catalog's events.
    const readCopies = await startReadCopies({
      connection,
      bus,
      logger,
      durablePrefix: config.DURABLE_PREFIX,
      replicas: config.JETSTREAM_REPLICAS,
    });
    // Ingestion, storage (the ingest stream's backlog drained first) and aggregation.
    const stored = await wireUsage({ config, connection, bus, clock, logger, copies: readCopies.copies });
    const advanceStore = new AdvanceStore(connection);
    await advanceStore.ensureIndexes(); // the answers' expiry sweep
    const answersSweep = startAdvanceAnswersSweep({ store: advanceStore, logger });
    const usage: UsageReader = new CachedUsageReader(stored.reader, {
      ttlMs: config.ESTIMATE_USAGE_CACHE_MS,
      maxEntries: 10_000,
    });
    const bindings: ServiceBinding[] = [
      bind(Rpc.usage, { ...stored.handlers, ...estimateHandlers({ copies: readCopies.copies, usage, clock }) }),
      // billing reads stored usage itself, never the estimates' cache
      bind(
        Rpc.chargeUsage,
        chargeUsageHandlers({
          copies: readCopies.copies,
          usage: stored.reader,
          storedThroughNow: stored.storedThroughNow,
          storedThroughSeq: stored.storedThroughSeq,
        }),
      ),
      // pay-in-advance fees, one call per batch of consecutive ingested envelopes (invoicing's consumer)
      bind(
        Rpc.advanceFees,
        advanceFeeHandlers({
          copies: readCopies.copies,
          store: advanceStore,
          cache: new Map(),
          copiesCaughtUp: readCopies.caughtUp,
        }),
      ),
      // invoice audits re-derive fees from the raw events (pages), never from a cache or the buckets' partials
      bind(
        Rpc.usageAudit,
        usageAuditHandlers({
          collections: usageCollections(connection),
          copies: readCopies.copies,
          store: advanceStore,
          storedThroughNow: stored.storedThroughNow,
        }),
      ),
    ];
    return {
      bindings,
      onStop: async () => {
        await answersSweep.stop();
        await stored.stop();
        await readCopies.stop();
      },
    };
  },
});
