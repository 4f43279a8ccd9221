/**
 * The billing vocabularies: the values of Lago's API enums that several packages check, price or
 * show, each listed once here (the gateway's validators, the catalog's rules, the views' schemas,
 * the pricing library and the services all import them). They live in @billing/codes, not in
 * @billing/contracts, because the pricing library uses them and depends on nothing but this
 * library: contracts brings the bus, gRPC and the generated proto types, which the money library
 * (and documents, reconcile) must not pull in.
 */

/**
 * A billable metric's aggregation (Lago's BillableMetric aggregation_type, as its OpenAPI lists it).
 * Lago's custom_agg (a sandboxed script, not offered by this API) is not one of them: the gateway
 * and the catalog refuse it, and the pricing library throws for any other value.
 */
export const AGGREGATION_TYPES = [
  "count_agg",
  "sum_agg",
  "max_agg",
  "unique_count_agg",
  "weighted_sum_agg",
  "latest_agg",
] as const;
export type AggregationType = (typeof AGGREGATION_TYPES)[number];

/** A billable metric's rounding of its aggregated units. */
export const ROUNDING_FUNCTIONS = ["ceil", "floor", "round"] as const;
export type RoundingFunction = (typeof ROUNDING_FUNCTIONS)[number];

/** A weighted sum's weighing interval. */
export const WEIGHTED_INTERVALS = ["seconds"] as const;
export type WeightedInterval = (typeof WEIGHTED_INTERVALS)[number];

/** What a plan (and a wallet's recurring top-up rule) repeats on. */
export const PLAN_INTERVALS = ["weekly", "monthly", "quarterly", "semiannual", "yearly"] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/** How a usage charge is priced (the pricing library has one model per name). */
export const CHARGE_MODELS = [
  "standard",
  "graduated",
  "graduated_percentage",
  "package",
  "percentage",
  "volume",
  "dynamic",
] as const;
export type ChargeModelName = (typeof CHARGE_MODELS)[number];

/** How a fixed charge (an add-on's units on a plan) is priced: a subset of the charge models. */
export const FIXED_CHARGE_MODELS = ["standard", "graduated", "volume"] as const satisfies readonly ChargeModelName[];
export type FixedChargeModelName = (typeof FIXED_CHARGE_MODELS)[number];

/** What a fee bills (Lago's fee_type / fee item type). */
export const FEE_TYPES = ["subscription", "charge", "fixed_charge", "commitment", "credit", "add_on"] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/** Why a subscription's period is on an invoice (Lago's billing_periods[].invoicing_reason). */
export const INVOICING_REASONS = [
  "subscription_starting",
  "subscription_periodic",
  "subscription_terminating",
  "in_advance_charge",
  "in_advance_charge_periodic",
  "progressive_billing",
] as const;
export type InvoicingReason = (typeof INVOICING_REASONS)[number];

/**
 * The invoicing reasons of a subscription's own billing (its start, a period, its termination),
 * the ones its billing schedule decides; pay-in-advance and progressive billing give the others.
 */
export const SUBSCRIPTION_INVOICING_REASONS = [
  "subscription_starting",
  "subscription_periodic",
  "subscription_terminating",
] as const satisfies readonly InvoicingReason[];
export type SubscriptionInvoicingReason = (typeof SUBSCRIPTION_INVOICING_REASONS)[number];

/** A subscription's status (pending until it starts, canceled when stopped before it started). */
export const SUBSCRIPTION_STATUSES = ["active", "pending", "terminated", "canceled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
