import { publishFromOutbox, startOutboxRelay, type Envelope } from "@billing/bus";
import { peerAddress } from "@billing/config";
import { loadService } from "@billing/grpc";
import { runBackendService } from "@billing/runtime";
import { customerHandlers } from "./grpc/handlers";
import { grpcCatalog } from "./peers/catalog";
import { CustomerRepository } from "./persistence/customer-repository";
import { registerModels } from "./persistence/models";
import { OrganizationRepository } from "./persistence/organization-repository";

void runBackendService("customer", async ({ config, connection, bus, clock, logger }) => {
  const models = registerModels(connection);
  const customers = new CustomerRepository(models);
  const organizations = new OrganizationRepository(models);
  const outbox = customers.outbox();
  const relay = startOutboxRelay(bus, [outbox], logger);
  const catalog = grpcCatalog(peerAddress(config, "catalog"));
  const deps = {
    customers,
    organizations,
    clock,
    catalog,
    publish: (customerId: string, event: Envelope) => publishFromOutbox(bus, outbox, customerId, event, logger),
  };
  return {
    bindings: [{ service: loadService("billing/customer/v1/customer.proto", "billing.customer.v1.CustomerService"), handlers: customerHandlers(deps) }],
    onStop: async () => {
      await relay.stop();
      catalog.close();
    },
  };
});
