import type { Connection } from "mongoose";
import { connectBus, ensureStream, publishFromOutbox, Streams, type Bus } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName } from "@billing/testkit";
import { grpcCatalog } from "../src/peers/catalog";
import { CustomerRepository } from "../src/persistence/customer-repository";
import { registerModels, type Models } from "../src/persistence/models";
import { OrganizationRepository } from "../src/persistence/organization-repository";
import type { CustomerDeps } from "../src/use-cases/deps";
import { createOrganization } from "../src/use-cases/organizations";
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
  const models = registerModels(connection);
  await initModels(connection);
  const bus = await connectBus({ url: infraUrls().natsUrl, name: `${label}-test` });
  await ensureStream(bus.jsm, Streams.customer);
  const peer = await startCatalogPeer(`${label}_catalog`);
  const catalog = grpcCatalog(peer.address);
  const clock = new ManualClock("2026-01-15T10:00:00Z");
  const customers = new CustomerRepository(models);
  const deps: CustomerDeps = {
    customers,
    organizations: new OrganizationRepository(models),
    clock,
    catalog,
    publish: (id, event) => publishFromOutbox(bus, customers.outbox(), id, event, silentLogger),
  };
  return {
    connection, models, bus, deps, clock, peer,
    org: async (name = "Acme") => (await createOrganization(deps, { name })).organization.id,
    async close() {
      catalog.close();
      await peer.stop();
      await connection.dropDatabase();
      await connection.close();
      await bus.close();
    },
  };
}
