/** The catalog service's records, as stored and as handled by its use cases. */

/** What every catalog record shares: one organization, a code unique among its live records, a soft delete. */
export interface CatalogRecord {
  id: string;
  organization_id: string;
  code: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface Tax extends CatalogRecord {
  name: string;
  description: string | null;
  /** Percent, a decimal string. */
  rate: string;
  applied_to_organization: boolean;
}

export const AGGREGATION_TYPES = ["count_agg", "sum_agg", "max_agg", "unique_count_agg", "latest_agg", "weighted_sum_agg"] as const;
export type AggregationType = (typeof AGGREGATION_TYPES)[number];
export const ROUNDING_FUNCTIONS = ["ceil", "floor", "round"] as const;
export const WEIGHTED_INTERVALS = ["seconds"] as const;

export interface MetricFilter {
  key: string;
  values: string[];
}

export interface BillableMetric extends CatalogRecord {
  name: string;
  description: string | null;
  aggregation_type: string;
  field_name: string | null;
  recurring: boolean;
  rounding_function: string | null;
  rounding_precision: number | null;
  weighted_interval: string | null;
  expression: string | null;
  filters: MetricFilter[];
}

export interface AddOn extends CatalogRecord {
  name: string;
  invoice_display_name: string | null;
  description: string | null;
  amount_cents: number;
  amount_currency: string;
  /** Ids of the taxes applied to the add-on (resolved to live taxes when read). */
  tax_ids: string[];
}

export const COUPON_TYPES = ["fixed_amount", "percentage"] as const;
export const COUPON_FREQUENCIES = ["once", "recurring", "forever"] as const;
export const COUPON_EXPIRATIONS = ["no_expiration", "time_limit"] as const;

export interface Coupon extends CatalogRecord {
  name: string;
  description: string | null;
  coupon_type: string;
  amount_cents: number | null;
  amount_currency: string | null;
  /** Percent, a decimal string. */
  percentage_rate: string | null;
  reusable: boolean;
  frequency: string;
  frequency_duration: number | null;
  expiration: string;
  expiration_at: Date | null;
  /** Plan codes as sent: plans are not in the catalog yet, so they cannot be checked. */
  plan_codes: string[];
  /** Ids of the billable metrics the coupon is limited to (resolved to live codes when read). */
  billable_metric_ids: string[];
  limited_plans: boolean;
  limited_billable_metrics: boolean;
  status: "active" | "terminated";
  terminated_at: Date | null;
}
