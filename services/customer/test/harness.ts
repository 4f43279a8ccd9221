import type { Connection } from "mongoose";
import { connectBus, ensureStream, Streams, type Bus } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import { grpcCatalog } from "../src/peers/catalog";
import type { Models } from "../src/persistence/models";
import type { CustomerDeps } from "../src/use-cases/deps";
import { createOrganization } from "../src/use-cases/organizations/create-organization";
import { wireCustomer } from "../src/wiring";
import { startCatalogPeer, type CatalogPeer } from "./catalog-peer";

/** The customer service's use cases on a database of their own, the real bus and a real catalog over gRPC. */
export interface CustomerHarness {
  connection: Connection;
  models: Models;
  bus: Bus;
  deps: CustomerDeps;
  clock: ManualClock;
  peer: CatalogPeer;
  org(name?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startCustomerHarness(label: string): Promise<CustomerHarness> {
  const connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName(label) });
  const bus = await connectBus({ url: infraUrls().natsUrl, name: `${label}-test` });
  await ensureStream(bus.jsm, Streams.customer);
  const peer = await startCatalogPeer(`${label}_catalog`);
  const catalog = grpcCatalog(peer.address);
  const clock = new ManualClock("2026-01-15T10:00:00Z");
  const { models, deps } = wireCustomer(connection, { bus, clock, catalog, logger: silentLogger });
  await initModels(connection);
  return {
    connection,
    models,
    bus,
    deps,
    clock,
    peer,
    org: async (name = "Acme") => (await createOrganization(deps, { name })).organization.id,
    async close() {
      catalog.close();
      await peer.stop();
      await dropTestDatabase(connection);
      await connection.close();
      await bus.close();
    },
  };
}
