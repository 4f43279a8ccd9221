import type { Connection } from "mongoose";
import { appliedCouponRecreditHandlers } from "./grpc/applied-coupon-recredit-handlers";
import { publishFromOutbox, startOutboxRelay, type Bus, type Envelope, type OutboxStore } from "@billing/bus";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import { Rpc } from "@billing/contracts";
import { bind, type ServiceBinding } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { defineService } from "@billing/runtime";
import { catalogConfigSchema } from "./config";
import type { AddOn, BillableMetric, Coupon, Plan, Tax } from "./domain/types";
import { addOnHandlers } from "./grpc/add-on-handlers";
import { appliedCouponHandlers } from "./grpc/applied-coupon-handlers";
import { billableMetricHandlers } from "./grpc/billable-metric-handlers";
import { couponHandlers } from "./grpc/coupon-handlers";
import { entitlementHandlers } from "./grpc/entitlement-handlers";
import { featureHandlers } from "./grpc/feature-handlers";
import { invoiceCustomSectionHandlers } from "./grpc/invoice-custom-section-handlers";
import { planHandlers } from "./grpc/plan-handlers";
import { scheduledWorkHandlers } from "./grpc/scheduled-work-handlers";
import { subscriptionHandlers } from "./grpc/subscription-handlers";
import { taxHandlers } from "./grpc/tax-handlers";
import { grpcCustomerDirectory, type CustomerDirectory } from "./peers/customer-directory";
import { registerAppliedCouponModel } from "./persistence/applied-coupon-model";
import { AppliedCouponRepository } from "./persistence/applied-coupon-repository";
import { CatalogRepository } from "./persistence/catalog-repository";
import { FeatureRepository } from "./persistence/feature-repository";
import { InvoiceCustomSectionRepository } from "./persistence/invoice-custom-section-repository";
import { registerModels } from "./persistence/models";
import { registerPlanEntitlementModel } from "./persistence/plan-entitlement-model";
import { PlanEntitlementRepository } from "./persistence/plan-entitlement-repository";
import { registerSubscriptionModel } from "./persistence/subscription-model";
import { SubscriptionRepository } from "./persistence/subscription-repository";
import { startSubscriptionScheduler } from "./schedule/subscription-scheduler";
import type { CatalogDeps } from "./use-cases/deps";

export interface CatalogWiring {
  models: ReturnType<typeof registerModels>;
  deps: CatalogDeps;
  /** The embedded outboxes whose leftovers a relay republishes. */
  outboxes: OutboxStore[];
}

/**
 * Every repository of the catalog on one connection (models registered, not yet initialised),
 * and the use cases' dependencies; the service and the integration tests wire it the same way.
 */
export function wireCatalog(
  connection: Connection,
  parts: { bus: Bus; clock: Clock; customers: CustomerDirectory; logger: Logger },
): CatalogWiring {
  const models = registerModels(connection);
  const billableMetrics = new CatalogRepository<BillableMetric>(models.billableMetrics);
  const plans = new CatalogRepository<Plan>(models.plans);
  const subscriptions = new SubscriptionRepository(registerSubscriptionModel(connection));
  const [metricOutbox, planOutbox, subscriptionOutbox] = [
    billableMetrics.outbox(),
    plans.outbox(),
    subscriptions.outbox(),
  ];
  const publish = (store: OutboxStore) => (id: string, event: Envelope) =>
    publishFromOutbox(parts.bus, store, id, event, parts.logger);
  const deps: CatalogDeps = {
    taxes: new CatalogRepository<Tax>(models.taxes),
    billableMetrics,
    addOns: new CatalogRepository<AddOn>(models.addOns),
    coupons: new CatalogRepository<Coupon>(models.coupons),
    plans,
    appliedCoupons: new AppliedCouponRepository(registerAppliedCouponModel(connection), models.coupons),
    childPlans: new CatalogRepository<Plan>(models.childPlans, (plan) => plan.id),
    subscriptions,
    features: new FeatureRepository(models.features),
    planEntitlements: new PlanEntitlementRepository(registerPlanEntitlementModel(connection)),
    invoiceCustomSections: new InvoiceCustomSectionRepository(models.invoiceCustomSections),
    clock: parts.clock,
    customers: parts.customers,
    publishBillableMetricEvent: publish(metricOutbox),
    publishPlanEvent: publish(planOutbox),
    publishSubscriptionEvent: publish(subscriptionOutbox),
  };
  return { models, deps, outboxes: [metricOutbox, planOutbox, subscriptionOutbox] };
}

/** The catalog's gRPC services, one per proto file, on the use cases' dependencies. */
export function catalogBindings(deps: CatalogDeps, flushEvents?: () => Promise<void>): ServiceBinding[] {
  return [
    bind(Rpc.catalog.taxes, taxHandlers(deps)),
    bind(Rpc.catalog.billableMetrics, billableMetricHandlers(deps)),
    bind(Rpc.catalog.addOns, addOnHandlers(deps)),
    bind(Rpc.catalog.coupons, couponHandlers(deps)),
    bind(Rpc.catalog.plans, planHandlers(deps)),
    bind(Rpc.catalog.appliedCoupons, appliedCouponHandlers(deps)),
    bind(Rpc.appliedCouponRecredits, appliedCouponRecreditHandlers(deps)),
    bind(Rpc.catalog.subscriptions, subscriptionHandlers(deps)),
    bind(Rpc.catalog.features, featureHandlers(deps)),
    bind(Rpc.catalog.entitlements, entitlementHandlers(deps)),
    bind(Rpc.catalog.invoiceCustomSections, invoiceCustomSectionHandlers(deps)),
    bind(Rpc.scheduledWork, scheduledWorkHandlers(deps, flushEvents)),
  ];
}

/** The catalog service owns taxes, billable metrics, add-ons, coupons, plans, features, custom sections and subscriptions. */
export const catalogService = defineService({
  name: "catalog",
  config: catalogConfigSchema,
  wire: async ({ config, connection, bus, clock, logger }) => {
    const customers = grpcCustomerDirectory(peerAddress(config, "customer"));
    const { deps, outboxes } = wireCatalog(connection, { bus, clock, customers, logger });
    const relay = startOutboxRelay(bus, outboxes, logger);
    const scheduler = startSubscriptionScheduler(deps, logger, config.SUBSCRIPTION_SCHEDULER_MS);
    return {
      bindings: catalogBindings(deps, relay.flush),
      onStop: async () => {
        await scheduler.stop();
        relay.stop();
        customers.close();
      },
    };
  },
});
