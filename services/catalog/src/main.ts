import { publishFromOutbox, startOutboxRelay, type Envelope } from "@billing/bus";
import { peerAddress } from "@billing/config";
import { loadService } from "@billing/grpc";
import { runBackendService } from "@billing/runtime";
import type { AddOn, BillableMetric, Coupon, Plan, Tax } from "./domain/types";
import { addOnHandlers } from "./grpc/add-on-handlers";
import { appliedCouponHandlers } from "./grpc/applied-coupon-handlers";
import { billableMetricHandlers } from "./grpc/billable-metric-handlers";
import { couponHandlers } from "./grpc/coupon-handlers";
import { entitlementHandlers } from "./grpc/entitlement-handlers";
import { featureHandlers } from "./grpc/feature-handlers";
import { invoiceCustomSectionHandlers } from "./grpc/invoice-custom-section-handlers";
import { planHandlers } from "./grpc/plan-handlers";
import { subscriptionHandlers } from "./grpc/subscription-handlers";
import { taxHandlers } from "./grpc/tax-handlers";
import { grpcCustomerDirectory } from "./peers/customer-directory";
import { registerAppliedCouponModel } from "./persistence/applied-coupon-model";
import { AppliedCouponRepository } from "./persistence/applied-coupon-repository";
import { CatalogRepository } from "./persistence/catalog-repository";
import { InvoiceCustomSectionRepository } from "./persistence/invoice-custom-section-repository";
import { FeatureRepository } from "./persistence/feature-repository";
import { registerModels } from "./persistence/models";
import { registerPlanEntitlementModel } from "./persistence/plan-entitlement-model";
import { PlanEntitlementRepository } from "./persistence/plan-entitlement-repository";
import { registerSubscriptionModel } from "./persistence/subscription-model";
import { SubscriptionRepository } from "./persistence/subscription-repository";
import { startSubscriptionScheduler } from "./schedule/subscription-scheduler";
import type { CatalogDeps } from "./use-cases/deps";

const PROTO = "billing/catalog/v1";

// The catalog service owns taxes, billable metrics, add-ons, coupons, plans and subscriptions.
void runBackendService("catalog", async ({ config, env, connection, bus, clock, logger }) => {
  const models = registerModels(connection);
  const billableMetrics = new CatalogRepository<BillableMetric>(models.billableMetrics);
  const plans = new CatalogRepository<Plan>(models.plans);
  const outbox = billableMetrics.outbox();
  const planOutbox = plans.outbox();
  const subscriptions = new SubscriptionRepository(registerSubscriptionModel(connection));
  const subscriptionOutbox = subscriptions.outbox();
  const relay = startOutboxRelay(bus, [outbox, planOutbox, subscriptionOutbox], logger);
  const customers = grpcCustomerDirectory(peerAddress(config, "customer"));
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
    clock,
    customers,
    publishBillableMetricEvent: (metricId: string, event: Envelope) => publishFromOutbox(bus, outbox, metricId, event, logger),
    publishPlanEvent: (planId: string, event: Envelope) => publishFromOutbox(bus, planOutbox, planId, event, logger),
    publishSubscriptionEvent: (id: string, event: Envelope) => publishFromOutbox(bus, subscriptionOutbox, id, event, logger),
  };
  const scheduler = startSubscriptionScheduler(deps, logger, Number(env.SUBSCRIPTION_SCHEDULER_MS ?? 1000));
  return {
    bindings: [
      { service: loadService(`${PROTO}/taxes.proto`, "billing.catalog.v1.TaxService"), handlers: taxHandlers(deps) },
      { service: loadService(`${PROTO}/billable_metrics.proto`, "billing.catalog.v1.BillableMetricService"), handlers: billableMetricHandlers(deps) },
      { service: loadService(`${PROTO}/add_ons.proto`, "billing.catalog.v1.AddOnService"), handlers: addOnHandlers(deps) },
      { service: loadService(`${PROTO}/coupons.proto`, "billing.catalog.v1.CouponService"), handlers: couponHandlers(deps) },
      { service: loadService(`${PROTO}/plans.proto`, "billing.catalog.v1.PlanService"), handlers: planHandlers(deps) },
      {
        service: loadService(`${PROTO}/applied_coupons.proto`, "billing.catalog.v1.AppliedCouponService"),
        handlers: appliedCouponHandlers(deps),
      },
      { service: loadService(`${PROTO}/subscriptions.proto`, "billing.catalog.v1.SubscriptionService"), handlers: subscriptionHandlers(deps) },
      { service: loadService(`${PROTO}/features.proto`, "billing.catalog.v1.FeatureService"), handlers: featureHandlers(deps) },
      { service: loadService(`${PROTO}/entitlements.proto`, "billing.catalog.v1.EntitlementService"), handlers: entitlementHandlers(deps) },
      {
        service: loadService(`${PROTO}/invoice_custom_sections.proto`, "billing.catalog.v1.InvoiceCustomSectionService"),
        handlers: invoiceCustomSectionHandlers(deps),
      },
    ],
    onStop: async () => {
      await scheduler.stop();
      await relay.stop();
      customers.close();
    },
  };
});
