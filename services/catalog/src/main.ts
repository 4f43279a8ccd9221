import { publishFromOutbox, startOutboxRelay, type Envelope } from "@billing/bus";
import { peerAddress } from "@billing/config";
import { loadService } from "@billing/grpc";
import { runBackendService } from "@billing/runtime";
import type { AddOn, BillableMetric, Coupon, Plan, Tax } from "./domain/types";
import { addOnHandlers } from "./grpc/add-on-handlers";
import { billableMetricHandlers } from "./grpc/billable-metric-handlers";
import { couponHandlers } from "./grpc/coupon-handlers";
import { planHandlers } from "./grpc/plan-handlers";
import { taxHandlers } from "./grpc/tax-handlers";
import { grpcCustomerDirectory } from "./peers/customer-directory";
import { CatalogRepository } from "./persistence/catalog-repository";
import { registerModels } from "./persistence/models";
import type { CatalogDeps } from "./use-cases/deps";

const PROTO = "billing/catalog/v1";

// The catalog service owns taxes, billable metrics, add-ons, coupons and plans (subscriptions come next).
void runBackendService("catalog", async ({ config, connection, bus, clock, logger }) => {
  const models = registerModels(connection);
  const billableMetrics = new CatalogRepository<BillableMetric>(models.billableMetrics);
  const plans = new CatalogRepository<Plan>(models.plans);
  const outbox = billableMetrics.outbox();
  const planOutbox = plans.outbox();
  const relay = startOutboxRelay(bus, [outbox, planOutbox], logger);
  const customers = grpcCustomerDirectory(peerAddress(config, "customer"));
  const deps: CatalogDeps = {
    taxes: new CatalogRepository<Tax>(models.taxes),
    billableMetrics,
    addOns: new CatalogRepository<AddOn>(models.addOns),
    coupons: new CatalogRepository<Coupon>(models.coupons),
    plans,
    clock,
    customers,
    publishBillableMetricEvent: (metricId: string, event: Envelope) => publishFromOutbox(bus, outbox, metricId, event, logger),
    publishPlanEvent: (planId: string, event: Envelope) => publishFromOutbox(bus, planOutbox, planId, event, logger),
  };
  return {
    bindings: [
      { service: loadService(`${PROTO}/taxes.proto`, "billing.catalog.v1.TaxService"), handlers: taxHandlers(deps) },
      { service: loadService(`${PROTO}/billable_metrics.proto`, "billing.catalog.v1.BillableMetricService"), handlers: billableMetricHandlers(deps) },
      { service: loadService(`${PROTO}/add_ons.proto`, "billing.catalog.v1.AddOnService"), handlers: addOnHandlers(deps) },
      { service: loadService(`${PROTO}/coupons.proto`, "billing.catalog.v1.CouponService"), handlers: couponHandlers(deps) },
      { service: loadService(`${PROTO}/plans.proto`, "billing.catalog.v1.PlanService"), handlers: planHandlers(deps) },
    ],
    onStop: async () => {
      await relay.stop();
      customers.close();
    },
  };
});
