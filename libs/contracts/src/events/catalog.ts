import { SUBSCRIPTION_STATUSES } from "@billing/codes";
import { z } from "zod";
import { instant, maybe, properties, taxView, text } from "./fields";

export { taxView };

/** billing.catalog.billable_metric.*: `{billable_metric}`, the metric's whole view. */
export const billableMetricView = z.object({
  svc_id: text,
  name: text,
  code: text,
  description: maybe(text),
  aggregation_type: text,
  field_name: maybe(text),
  recurring: z.boolean().default(false),
  rounding_function: maybe(text),
  rounding_precision: maybe(z.number()),
  weighted_interval: maybe(text),
  expression: maybe(text),
  filters: z.array(z.object({ key: text, values: z.array(text) })).default([]),
  created_at: instant,
  updated_at: instant,
  deleted_at: maybe(instant),
});
export const billableMetricEventData = z.object({ billable_metric: billableMetricView });

export const chargeView = z.object({
  svc_id: text,
  svc_billable_metric_id: text,
  billable_metric_code: text,
  code: maybe(text),
  charge_model: text,
  pay_in_advance: z.boolean(),
  invoiceable: z.boolean().default(true),
  prorated: z.boolean().default(false),
  min_amount_cents: z.number().int().default(0),
  regroup_paid_fees: maybe(text),
  invoice_display_name: maybe(text),
  properties: properties.default({}),
  filters: z
    .array(
      z.object({
        invoice_display_name: maybe(text),
        properties: properties.default({}),
        values: z.record(z.string(), z.array(text)),
      }),
    )
    .default([]),
  taxes: z.array(taxView).default([]),
  created_at: maybe(instant),
});

export const fixedChargeView = z.object({
  svc_id: text,
  svc_add_on_id: text,
  add_on_code: text,
  /** The add-on's name (what a fixed-charge fee is called on an invoice); null from producers that do not send it. */
  add_on_name: maybe(text),
  code: maybe(text),
  charge_model: text,
  pay_in_advance: z.boolean(),
  prorated: z.boolean().default(false),
  units: z.union([text, z.number()]).transform(String),
  invoice_display_name: maybe(text),
  properties: properties.default({}),
  taxes: z.array(taxView).default([]),
  created_at: maybe(instant),
});

export const planView = z.object({
  svc_id: text,
  name: text,
  code: text,
  description: maybe(text),
  invoice_display_name: maybe(text),
  interval: text,
  amount_cents: z.number().int(),
  amount_currency: text,
  trial_period: z
    .number()
    .nullish()
    .transform((v) => v ?? 0),
  pay_in_advance: z.boolean().default(false),
  bill_charges_monthly: maybe(z.boolean()),
  bill_fixed_charges_monthly: maybe(z.boolean()),
  taxes: z.array(taxView).default([]),
  minimum_commitment: maybe(
    z.object({
      svc_id: text,
      amount_cents: z.number().int(),
      invoice_display_name: maybe(text),
      taxes: z.array(taxView).default([]),
    }),
  ),
  usage_thresholds: z
    .array(
      z.object({
        svc_id: text,
        threshold_display_name: maybe(text),
        amount_cents: z.number().int(),
        recurring: z.boolean(),
        created_at: maybe(instant),
        updated_at: maybe(instant),
      }),
    )
    .default([]),
  charges: z.array(chargeView).default([]),
  fixed_charges: z.array(fixedChargeView).default([]),
  created_at: instant,
  updated_at: instant,
  deleted_at: maybe(instant),
});
/** billing.catalog.plan.*: `{plan}`, the plan's whole view, charges included. */
export const planEventData = z.object({ plan: planView });

export const subscriptionView = z.object({
  svc_id: text,
  external_id: text,
  svc_customer_id: text,
  external_customer_id: text,
  name: maybe(text),
  plan_code: text,
  /** The plan it is billed on (a private copy when overridden). */
  plan_id: text,
  status: z.enum(SUBSCRIPTION_STATUSES),
  billing_time: z.enum(["calendar", "anniversary"]),
  subscription_at: instant,
  started_at: maybe(instant),
  ending_at: maybe(instant),
  terminated_at: maybe(instant),
  canceled_at: maybe(instant),
  trial_ended_at: maybe(instant),
  previous_plan_code: maybe(text),
  next_plan_code: maybe(text),
  downgrade_plan_date: maybe(text),
  on_termination_credit_note: maybe(text),
  on_termination_invoice: maybe(text),
  /** no progressive billing for it (absent in events of older versions: false) */
  progressive_billing_disabled: z.boolean().optional(),
  /** its invoices show no custom section (absent in events of older versions: false) */
  skip_invoice_custom_sections: z.boolean().optional(),
  /** the sections it chose for its invoices (ids; absent in events of older versions: none) */
  invoice_custom_section_ids: z.array(text).optional(),
  created_at: instant,
  /** The customer's time zone, which the billing periods follow. */
  timezone: text.default("UTC"),
});
/**
 * billing.catalog.subscription.started|updated|terminated|canceled: the subscription, the plan it
 * is billed on (a private copy included) and the customer's time zone, so read copies need no call.
 */
export const subscriptionEventData = z.object({ subscription: subscriptionView, plan: planView });

/** The views as consumers read them (defaults applied, absent nullable fields as null). */
export type TaxViewData = z.output<typeof taxView>;
export type BillableMetricViewData = z.output<typeof billableMetricView>;
export type ChargeViewData = z.output<typeof chargeView>;
export type FixedChargeViewData = z.output<typeof fixedChargeView>;
export type PlanViewData = z.output<typeof planView>;
export type SubscriptionViewData = z.output<typeof subscriptionView>;
