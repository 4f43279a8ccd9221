import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { connectBus, ensureStream, Streams, type Bus } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import type { Models } from "../src/persistence/models";
import type { CatalogDeps } from "../src/use-cases/deps";
import { wireCatalog } from "../src/wiring";
import { MemoryCustomerDirectory } from "./memory-customer-directory";

/** The catalog's use cases wired to a database of their own and the real bus. */
export interface Harness {
  connection: Connection;
  models: Models;
  bus: Bus;
  deps: CatalogDeps;
  clock: ManualClock;
  /** The customer service's stand-in: seed customers with `customers.add`. */
  customers: MemoryCustomerDirectory;
  org(): string;
  close(): Promise<void>;
}

export async function startHarness(label: string): Promise<Harness> {
  const connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName(label) });
  const bus = await connectBus({ url: infraUrls().natsUrl, name: `${label}-test` });
  await ensureStream(bus.jsm, Streams.catalog);
  const clock = new ManualClock("2026-01-15T10:00:00Z");
  const customers = new MemoryCustomerDirectory();
  const { models, deps } = wireCatalog(connection, { bus, clock, customers, logger: silentLogger });
  await initModels(connection);
  return {
    connection,
    models,
    bus,
    deps,
    clock,
    customers,
    org: () => randomUUID(),
    async close() {
      await dropTestDatabase(connection);
      await connection.close();
      await bus.close();
    },
  };
}
