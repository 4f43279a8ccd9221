/**
 * The catalog's definitions as the usage service keeps them (read copies fed by the catalog's
 * events, never a call per event). Shapes are the parts of the catalog's event views we use.
 */

/** billing.catalog.billable_metric.* `data.billable_metric` (the catalog's public view). */
export interface MetricCopy {
  svc_id: string;
  organization_id: string;
  code: string;
  name: string;
  description: string | null;
  aggregation_type: string;
  field_name: string | null;
  recurring: boolean;
  rounding_function: string | null;
  rounding_precision: number | null;
  weighted_interval: string | null;
  expression: string | null;
  filters: { key: string; values: string[] }[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A tax as the plan view shows it (charge and plan taxes). */
export interface TaxCopy {
  svc_id: string;
  code: string;
  name: string;
  rate: string | number;
  description: string | null;
}

export interface ChargeFilterCopy {
  invoice_display_name: string | null;
  properties: Record<string, unknown>;
  values: Record<string, string[]>;
}

export interface ChargeCopy {
  svc_id: string;
  svc_billable_metric_id: string;
  billable_metric_code: string;
  charge_model: string;
  pay_in_advance: boolean;
  invoiceable: boolean;
  prorated: boolean;
  properties: Record<string, unknown>;
  filters: ChargeFilterCopy[];
  taxes: TaxCopy[];
  invoice_display_name: string | null;
  created_at: string | null;
}

/** A plan a subscription is billed on (billing.catalog.plan.* `data.plan`, or `data.plan` of a subscription event). */
export interface PlanCopy {
  svc_id: string;
  organization_id: string;
  /** For a subscription's private plan: the parent's code, as the subscription shows it. */
  code: string;
  name: string;
  interval: string;
  amount_currency: string;
  bill_charges_monthly: boolean | null;
  taxes: TaxCopy[];
  charges: ChargeCopy[];
  updated_at: string;
  deleted_at: string | null;
}

/** billing.catalog.subscription.* `data.subscription`: the view, plus plan_id and the customer's time zone. */
export interface SubscriptionState {
  svc_id: string;
  organization_id: string;
  external_id: string;
  svc_customer_id: string;
  external_customer_id: string;
  status: string;
  billing_time: string;
  subscription_at: string;
  started_at: string | null;
  terminated_at: string | null;
  canceled_at: string | null;
  created_at: string;
  plan_id: string;
  plan_code: string;
  timezone: string;
}

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
