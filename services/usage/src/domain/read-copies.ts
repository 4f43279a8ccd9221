import type {
  BillableMetricViewData,
  ChargeViewData,
  PlanViewData,
  SubscriptionViewData,
  TaxViewData,
} from "@billing/contracts";

/**
 * The catalog's definitions as the usage service keeps them (read copies fed by the catalog's
 * events, never a call per event): the catalog's event views as @billing/contracts parses them,
 * with the organization they belong to.
 */

/** billing.catalog.billable_metric.* `data.billable_metric` (the catalog's public view). */
export type MetricCopy = BillableMetricViewData & { organization_id: string };

/** A tax as the plan view shows it (charge and plan taxes). */
export type TaxCopy = TaxViewData;

export type ChargeFilterCopy = ChargeViewData["filters"][number];

export type ChargeCopy = ChargeViewData;

/**
 * A plan a subscription is billed on (billing.catalog.plan.* `data.plan`, or `data.plan` of a
 * subscription event). For a subscription's private plan, `code` is the parent's code.
 */
export type PlanCopy = PlanViewData & { organization_id: string };

/** billing.catalog.subscription.* `data.subscription`: the view, plus plan_id and the customer's time zone. */
export type SubscriptionState = SubscriptionViewData & { organization_id: string };

/** A subscription and the plan it is billed on (charges included). */
export interface SubscriptionCopy {
  organization_id: string;
  subscription: SubscriptionState;
  plan: PlanCopy;
}

/** What the ingest, aggregation and estimate code ask of the read copies (served from memory). */
export interface CatalogCopies {
  /** The live (not deleted) metric of that code. */
  metricByCode(organizationId: string, code: string): MetricCopy | null;
  /** The active subscription with that external id (Lago aggregates by external id across plan changes). */
  activeSubscription(organizationId: string, externalId: string): SubscriptionCopy | null;
  /** Every subscription copy of that external id, newest first (terminated ones included). */
  subscriptions(organizationId: string, externalId: string): SubscriptionCopy[];
}
