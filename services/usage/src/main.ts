import { loadService } from "@billing/grpc";
import { runBackendService } from "@billing/runtime";
import type { UsageReader } from "./domain/usage-event";
import { estimateHandlers } from "./estimate/estimate-handler";
import { startReadCopies } from "./read-copies/start-read-copies";

// Stand-in until the stored events' reader is wired here: no stored usage in the period.
const noStoredUsage: UsageReader = { events: async () => [] };

// The usage service owns usage events and their aggregates.
void runBackendService("usage", async ({ config, env, connection, bus, clock, logger }) => {
  // Catalog read copies (metrics, subscriptions with their plans): loaded from MongoDB, then fed by the catalog's events.
  const readCopies = await startReadCopies({ connection, bus, logger, durablePrefix: env.DURABLE_PREFIX, replicas: config.JETSTREAM_REPLICAS });
  const usage: UsageReader = noStoredUsage;
  return {
    bindings: [
      {
        service: loadService("billing/usage/v1/usage.proto", "billing.usage.v1.UsageService"),
        handlers: { ...estimateHandlers({ copies: readCopies.copies, usage, clock }) },
      },
    ],
    onStop: async () => {
      await readCopies.stop();
    },
  };
});
