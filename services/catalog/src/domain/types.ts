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

export interface ChargeFilterRecord {
  invoice_display_name: string | null;
  properties: Record<string, unknown>;
  /** Metric filter key → values (or "__ALL_FILTER_VALUES__"). */
  values: Record<string, string[]>;
}

/** A usage charge of a plan, priced on one billable metric. */
export interface Charge {
  id: string;
  billable_metric_id: string;
  /** The metric's code when the charge was last written (the live code wins when read). */
  billable_metric_code: string;
  code: string | null;
  charge_model: string;
  pay_in_advance: boolean;
  invoiceable: boolean;
  prorated: boolean;
  min_amount_cents: number;
  regroup_paid_fees: string | null;
  invoice_display_name: string | null;
  properties: Record<string, unknown>;
  filters: ChargeFilterRecord[];
  tax_ids: string[];
  created_at: Date;
  /** On a subscription's private plan: the public plan's charge it was copied from. */
  parent_id?: string | null;
}

/** A fixed charge of a plan, priced on one add-on. */
export interface FixedCharge {
  id: string;
  add_on_id: string;
  add_on_code: string;
  code: string | null;
  charge_model: string;
  pay_in_advance: boolean;
  prorated: boolean;
  units: number;
  invoice_display_name: string | null;
  properties: Record<string, unknown>;
  tax_ids: string[];
  created_at: Date;
}

export interface MinimumCommitment {
  id: string;
  amount_cents: number;
  invoice_display_name: string | null;
  tax_ids: string[];
  created_at: Date;
  updated_at: Date;
}

export interface UsageThreshold {
  id: string;
  threshold_display_name: string | null;
  amount_cents: number;
  recurring: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface Plan extends CatalogRecord {
  name: string;
  description: string | null;
  invoice_display_name: string | null;
  interval: string;
  amount_cents: number;
  amount_currency: string;
  trial_period: number | null;
  pay_in_advance: boolean;
  bill_charges_monthly: boolean | null;
  bill_fixed_charges_monthly: boolean | null;
  tax_ids: string[];
  minimum_commitment: MinimumCommitment | null;
  usage_thresholds: UsageThreshold[];
  charges: Charge[];
  fixed_charges: FixedCharge[];
  metadata: Record<string, unknown> | null;
  /** Set on a subscription's private plan (plan_overrides): the plan it was copied from. */
  parent_id?: string | null;
}
