import { publishFromOutbox, startOutboxRelay, type Envelope } from "@billing/bus";
import { loadService } from "@billing/grpc";
import { runBackendService } from "@billing/runtime";
import { customerHandlers } from "./grpc/handlers";
import { CustomerRepository } from "./persistence/customer-repository";
import { registerModels } from "./persistence/models";
import { OrganizationRepository } from "./persistence/organization-repository";

void runBackendService("customer", async ({ connection, bus, clock, logger }) => {
  const models = registerModels(connection);
  const customers = new CustomerRepository(models);
  const organizations = new OrganizationRepository(models);
  const outbox = customers.outbox();
  const relay = startOutboxRelay(bus, [outbox], logger);
  const deps = {
    customers,
    organizations,
    clock,
    publish: (customerId: string, event: Envelope) => publishFromOutbox(bus, outbox, customerId, event, logger),
  };
  return {
    bindings: [{ service: loadService("billing/customer/v1/customer.proto", "billing.customer.v1.CustomerService"), handlers: customerHandlers(deps) }],
    onStop: () => relay.stop(),
  };
});
