import { parseConfig } from "@billing/config";
import { loadService } from "@billing/grpc";
import { runBackendService } from "@billing/runtime";
import { usageConfigSchema } from "./config";
import type { UsageReader } from "./domain/usage-event";
import { CachedUsageReader } from "./estimate/cached-usage-reader";
import { estimateHandlers } from "./estimate/estimate-handler";
import { startReadCopies } from "./read-copies/start-read-copies";
import { startUsage } from "./start-usage";

// The usage service owns usage events and their aggregates.
void runBackendService("usage", async ({ config, env, connection, bus, clock, logger }) => {
  // Catalog read copies (metrics, subscriptions with their plans): loaded from MongoDB, then fed by the catalog's events.
  const readCopies = await startReadCopies({ connection, bus, logger, durablePrefix: env.DURABLE_PREFIX, replicas: config.JETSTREAM_REPLICAS });
  // Ingestion, storage (the ingest stream's backlog drained first) and aggregation.
  const stored = await startUsage({ config: { ...parseConfig(usageConfigSchema, env), JETSTREAM_REPLICAS: config.JETSTREAM_REPLICAS }, connection, bus, clock, logger, copies: readCopies.copies });
  // Estimates read a period's stored events at most once per ESTIMATE_USAGE_CACHE_MS (0: every time).
  const usage: UsageReader = new CachedUsageReader(stored.reader, { ttlMs: Number(env.ESTIMATE_USAGE_CACHE_MS ?? 1000), maxEntries: 10_000 });
  return {
    bindings: [
      {
        service: loadService("billing/usage/v1/usage.proto", "billing.usage.v1.UsageService"),
        handlers: { ...stored.handlers, ...estimateHandlers({ copies: readCopies.copies, usage, clock }) },
      },
    ],
    onStop: async () => {
      await stored.stop();
      await readCopies.stop();
    },
  };
});
