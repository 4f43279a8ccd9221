import { GRPC_PORTS, type BackendService } from "@billing/config";
import { loadService, RpcClient } from "@billing/grpc";
import type { GatewayConfig } from "./config";

/** One gRPC client per backend service, plus their addresses for health checks. */
export function createClients(config: GatewayConfig) {
  const deadline = config.GRPC_DEADLINE_MS;
  const addresses = Object.fromEntries(
    (Object.keys(GRPC_PORTS) as BackendService[]).map((s) => [s, config[`${s.toUpperCase()}_GRPC_ADDR` as keyof GatewayConfig] as string]),
  ) as Record<BackendService, string>;
  return {
    addresses,
    customer: new RpcClient(loadService("billing/customer/v1/customer.proto", "billing.customer.v1.CustomerService"), addresses.customer, deadline),
  };
}

export type Clients = ReturnType<typeof createClients>;
