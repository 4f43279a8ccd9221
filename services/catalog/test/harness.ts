import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { connectBus, ensureStream, publishFromOutbox, Streams, type Bus } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName } from "@billing/testkit";
import type { AddOn, BillableMetric, Coupon, Plan, Tax } from "../src/domain/types";
import { registerAppliedCouponModel } from "../src/persistence/applied-coupon-model";
import { AppliedCouponRepository } from "../src/persistence/applied-coupon-repository";
import { CatalogRepository } from "../src/persistence/catalog-repository";
import { InvoiceCustomSectionRepository } from "../src/persistence/invoice-custom-section-repository";
import { FeatureRepository } from "../src/persistence/feature-repository";
import { registerModels, type Models } from "../src/persistence/models";
import { registerPlanEntitlementModel } from "../src/persistence/plan-entitlement-model";
import { PlanEntitlementRepository } from "../src/persistence/plan-entitlement-repository";
import { registerSubscriptionModel } from "../src/persistence/subscription-model";
import { SubscriptionRepository } from "../src/persistence/subscription-repository";
import type { CatalogDeps } from "../src/use-cases/deps";
import { MemoryCustomerDirectory } from "./memory-customer-directory";

/** The catalog's use cases wired to a database of their own and the real bus. */
export interface Harness {
  connection: Connection;
  models: Models;
  bus: Bus;
  deps: CatalogDeps;
  clock: ManualClock;
  /** The customer service's stand-in: seed customers with `customers.add`. */
  customers: MemoryCustomerDirectory;
  org(): string;
  close(): Promise<void>;
}

export async function startHarness(label: string): Promise<Harness> {
  const connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName(label) });
  const models = registerModels(connection);
  const subscriptions = new SubscriptionRepository(registerSubscriptionModel(connection));
  const appliedCoupons = new AppliedCouponRepository(registerAppliedCouponModel(connection), models.coupons);
  const planEntitlements = new PlanEntitlementRepository(registerPlanEntitlementModel(connection));
  await initModels(connection);
  const bus = await connectBus({ url: infraUrls().natsUrl, name: `${label}-test` });
  await ensureStream(bus.jsm, Streams.catalog);
  const clock = new ManualClock("2026-01-15T10:00:00Z");
  const billableMetrics = new CatalogRepository<BillableMetric>(models.billableMetrics);
  const plans = new CatalogRepository<Plan>(models.plans);
  const customers = new MemoryCustomerDirectory();
  const deps: CatalogDeps = {
    taxes: new CatalogRepository<Tax>(models.taxes),
    billableMetrics,
    addOns: new CatalogRepository<AddOn>(models.addOns),
    coupons: new CatalogRepository<Coupon>(models.coupons),
    plans,
    appliedCoupons,
    childPlans: new CatalogRepository<Plan>(models.childPlans, (plan) => plan.id),
    subscriptions,
    features: new FeatureRepository(models.features),
    planEntitlements,
    invoiceCustomSections: new InvoiceCustomSectionRepository(models.invoiceCustomSections),
    clock,
    customers,
    publishBillableMetricEvent: (id, event) => publishFromOutbox(bus, billableMetrics.outbox(), id, event, silentLogger),
    publishPlanEvent: (id, event) => publishFromOutbox(bus, plans.outbox(), id, event, silentLogger),
    publishSubscriptionEvent: (id, event) => publishFromOutbox(bus, subscriptions.outbox(), id, event, silentLogger),
  };
  return {
    connection, models, bus, deps, clock, customers,
    org: () => randomUUID(),
    async close() {
      await connection.dropDatabase();
      await connection.close();
      await bus.close();
    },
  };
}
