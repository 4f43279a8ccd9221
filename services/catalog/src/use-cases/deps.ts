import type { Envelope } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { AddOn, BillableMetric, Coupon, Plan, Tax } from "../domain/types";
import type { CatalogRepository } from "../persistence/catalog-repository";
import type { AppliedCouponRepository } from "../persistence/applied-coupon-repository";
import type { InvoiceCustomSectionRepository } from "../persistence/invoice-custom-section-repository";
import type { SubscriptionRepository } from "../persistence/subscription-repository";
import type { CustomerDirectory } from "../peers/customer-directory";
import type { FeatureRepository } from "../persistence/feature-repository";
import type { PlanEntitlementRepository } from "../persistence/plan-entitlement-repository";

/** What every use case of the catalog service is given. */
export interface CatalogDeps {
  taxes: CatalogRepository<Tax>;
  billableMetrics: CatalogRepository<BillableMetric>;
  addOns: CatalogRepository<AddOn>;
  coupons: CatalogRepository<Coupon>;
  plans: CatalogRepository<Plan>;
  appliedCoupons: AppliedCouponRepository;
  invoiceCustomSections: InvoiceCustomSectionRepository;
  /** Subscriptions' private plans (plan_overrides), never listed among the plans. */
  childPlans: CatalogRepository<Plan>;
  subscriptions: SubscriptionRepository;
  features: FeatureRepository;
  /** Each plan's entitlements to features. */
  planEntitlements: PlanEntitlementRepository;
  clock: Clock;
  /** The customer service (subscriptions and applied coupons name customers by external id). */
  customers: CustomerDirectory;
  /** Publishes an event already written to a billable metric's outbox. */
  publishBillableMetricEvent(metricId: string, event: Envelope): Promise<void>;
  /** Publishes an event already written to a plan's outbox. */
  publishPlanEvent(planId: string, event: Envelope): Promise<void>;
  /** Publishes an event already written to a subscription's outbox. */
  publishSubscriptionEvent(subscriptionId: string, event: Envelope): Promise<void>;
}
