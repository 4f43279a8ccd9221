import { GRPC_PORTS, peerAddress, type BackendService } from "@billing/config";
import { Rpc, type CatalogRpc } from "@billing/contracts";
import { RpcClient, type ServiceRef } from "@billing/grpc";
import type { GatewayConfig } from "./config";

type CatalogClients = { [K in keyof CatalogRpc]: RpcClient<CatalogRpc[K]> };

/** The catalog service's gRPC services (one proto file each), all at the catalog's address. */
function catalogClients(address: string, deadline: number): CatalogClients {
  const entries = Object.entries(Rpc.catalog).map(([name, ref]) => [
    name,
    new RpcClient(ref as ServiceRef<unknown>, address, deadline),
  ]);
  return Object.fromEntries(entries) as CatalogClients;
}

/** One typed gRPC client per backend service the gateway calls, plus every service's address for health checks. */
export function createClients(config: GatewayConfig) {
  const deadline = config.GRPC_DEADLINE_MS;
  const addresses = Object.fromEntries(
    (Object.keys(GRPC_PORTS) as BackendService[]).map((s) => [s, peerAddress(config, s)]),
  ) as Record<BackendService, string>;
  const customer = new RpcClient(Rpc.customer, addresses.customer, deadline);
  const catalog = catalogClients(addresses.catalog, deadline);
  const usage = new RpcClient(Rpc.usage, addresses.usage, deadline);
  const invoicing = new RpcClient(Rpc.invoicing, addresses.invoicing, deadline);
  const invoiceDocuments = new RpcClient(Rpc.invoiceDocuments, addresses.invoicing, deadline);
  const fees = new RpcClient(Rpc.fees, addresses.invoicing, deadline);
  const lifetimeUsage = new RpcClient(Rpc.lifetimeUsage, addresses.invoicing, deadline);
  const creditNotes = new RpcClient(Rpc.creditNotes, addresses.invoicing, deadline);
  const wallet = new RpcClient(Rpc.wallet, addresses.wallet, deadline);
  const payment = new RpcClient(Rpc.payment, addresses.payment, deadline);
  const paymentRequests = new RpcClient(Rpc.paymentRequests, addresses.payment, deadline);
  const webhooks = new RpcClient(Rpc.webhooks, addresses.payment, deadline);
  // audits read a period's raw events: a longer deadline than the API's usual one
  const invoiceAudit = new RpcClient(Rpc.invoiceAudit, addresses.invoicing, Math.max(deadline, 60_000));
  return {
    addresses,
    customer,
    catalog,
    usage,
    invoicing,
    invoiceDocuments,
    fees,
    lifetimeUsage,
    creditNotes,
    wallet,
    payment,
    paymentRequests,
    webhooks,
    invoiceAudit,
    close: () =>
      [
        customer,
        usage,
        invoicing,
        invoiceDocuments,
        fees,
        lifetimeUsage,
        creditNotes,
        invoiceAudit,
        wallet,
        payment,
        paymentRequests,
        webhooks,
        ...Object.values(catalog),
      ].forEach((client) => client.close()),
  };
}

export type Clients = ReturnType<typeof createClients>;
export type CustomerClient = Clients["customer"];
export type UsageClient = Clients["usage"];
