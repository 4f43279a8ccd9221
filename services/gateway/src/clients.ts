import { GRPC_PORTS, peerAddress, type BackendService } from "@billing/config";
import { loadService, RpcClient } from "@billing/grpc";
import type { GatewayConfig } from "./config";

/** The catalog service's gRPC services (one proto file each), all at the catalog's address. */
function catalogClients(address: string, deadline: number) {
  const client = (file: string, service: string) => new RpcClient(loadService(`billing/catalog/v1/${file}`, `billing.catalog.v1.${service}`), address, deadline);
  return {
    taxes: client("taxes.proto", "TaxService"),
    billableMetrics: client("billable_metrics.proto", "BillableMetricService"),
    addOns: client("add_ons.proto", "AddOnService"),
    coupons: client("coupons.proto", "CouponService"),
    appliedCoupons: client("applied_coupons.proto", "AppliedCouponService"),
    plans: client("plans.proto", "PlanService"),
    subscriptions: client("subscriptions.proto", "SubscriptionService"),
    invoiceCustomSections: client("invoice_custom_sections.proto", "InvoiceCustomSectionService"),
    features: client("features.proto", "FeatureService"),
    entitlements: client("entitlements.proto", "EntitlementService"),
  };
}
export type CatalogClients = ReturnType<typeof catalogClients>;

/** One gRPC client per backend service, plus their addresses for health checks. */
export function createClients(config: GatewayConfig) {
  const deadline = config.GRPC_DEADLINE_MS;
  const addresses = Object.fromEntries(
    (Object.keys(GRPC_PORTS) as BackendService[]).map((s) => [s, peerAddress(config, s)]),
  ) as Record<BackendService, string>;
  return {
    addresses,
    customer: new RpcClient(loadService("billing/customer/v1/customer.proto", "billing.customer.v1.CustomerService"), addresses.customer, deadline),
    catalog: catalogClients(addresses.catalog, deadline),
    usage: new RpcClient(loadService("billing/usage/v1/usage.proto", "billing.usage.v1.UsageService"), addresses.usage, deadline),
  };
}

export type Clients = ReturnType<typeof createClients>;
