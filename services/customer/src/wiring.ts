import type { Connection } from "mongoose";
import { publishFromOutbox, startOutboxRelay, type Bus, type OutboxRelay, type OutboxStore } from "@billing/bus";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import { Rpc, type CustomerRpc } from "@billing/contracts";
import { bind, type Handlers } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { defineService } from "@billing/runtime";
import { customerConfigSchema } from "./config";
import { billingEntityHandlers } from "./grpc/billing-entity-handlers";
import { customerHandlers } from "./grpc/customer-handlers";
import { organizationHandlers } from "./grpc/organization-handlers";
import { grpcCatalog, type Catalog } from "./peers/catalog";
import { grpcScheduledWork, type ScheduledWorkPeer } from "./peers/scheduled-work";
import { TestClockDriver } from "./schedule/test-clock-driver";
import { CustomerRepository } from "./persistence/customer-repository";
import { registerModels, type Models } from "./persistence/models";
import { OrganizationRepository } from "./persistence/organization-repository";
import type { CustomerDeps } from "./use-cases/deps";

export interface CustomerWiring {
  models: Models;
  deps: CustomerDeps;
  /** The embedded outboxes whose leftovers a relay republishes. */
  outboxes: OutboxStore[];
  handlers: Handlers<CustomerRpc>;
}

/**
 * Every repository of the customer service on one connection (models registered, not yet
 * initialised), the use cases' dependencies and the gRPC handlers; the service and its
 * integration tests wire it the same way.
 */
export function wireCustomer(
  connection: Connection,
  parts: {
    bus: Bus;
    clock: Clock;
    catalog: Catalog;
    logger: Logger;
    scheduledWork?: ScheduledWorkPeer[];
    testClocks?: TestClockDriver;
    flushEvents?: () => Promise<void>;
  },
): CustomerWiring {
  const models = registerModels(connection);
  const customers = new CustomerRepository(models);
  const outbox = customers.outbox();
  const deps: CustomerDeps = {
    customers,
    organizations: new OrganizationRepository(models),
    clock: parts.clock,
    catalog: parts.catalog,
    scheduledWork: parts.scheduledWork ?? [],
    testClocks: parts.testClocks ?? { drive: () => undefined },
    flushEvents: parts.flushEvents ?? (async () => undefined),
    publish: (customerId, event) => publishFromOutbox(parts.bus, outbox, customerId, event, parts.logger),
  };
  const handlers: Handlers<CustomerRpc> = {
    ...organizationHandlers(deps),
    ...customerHandlers(deps),
    ...billingEntityHandlers(deps),
  };
  return { models, deps, outboxes: [outbox], handlers };
}

/** The customer service owns organizations, API keys (hashed), billing entities and customers. */
export const customerService = defineService({
  name: "customer",
  config: customerConfigSchema,
  wire: async ({ config, connection, bus, clock, logger }) => {
    const catalog = grpcCatalog(peerAddress(config, "catalog"));
    const scheduledWork = config.TEST_CLOCK_PEERS.map((peer) => grpcScheduledWork(peer, peerAddress(config, peer)));
    const testClocks = new TestClockDriver(logger.child({ part: "test-clocks" }));
    let relay: OutboxRelay | undefined;
    const flushEvents = async () => relay?.flush();
    const { handlers, outboxes, deps } = wireCustomer(connection, {
      bus,
      clock,
      catalog,
      logger,
      scheduledWork,
      testClocks,
      flushEvents,
    });
    relay = startOutboxRelay(bus, outboxes, logger);
    testClocks.start(deps);
    void testClocks.resume().catch((err) => logger.error({ err }, "could not resume advancing test clocks"));
    return {
      bindings: [bind(Rpc.customer, handlers)],
      onStop: async () => {
        await testClocks.stop();
        relay?.stop();
        catalog.close();
        for (const peer of scheduledWork) peer.close();
      },
    };
  },
});
