import type { Connection } from "mongoose";
import { publishFromOutbox, type Bus, type Envelope, type OutboxStore } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { Logger } from "@billing/logger";
import type { AddOn, BillableMetric, Coupon, Plan, Tax } from "./domain/types";
import type { CustomerDirectory } from "./peers/customer-directory";
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
  const [metricOutbox, planOutbox, subscriptionOutbox] = [billableMetrics.outbox(), plans.outbox(), subscriptions.outbox()];
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
