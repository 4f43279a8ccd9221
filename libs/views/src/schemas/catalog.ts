import {
  AGGREGATION_TYPES,
  CHARGE_MODELS,
  FIXED_CHARGE_MODELS,
  PLAN_INTERVALS,
  ROUNDING_FUNCTIONS,
  SUBSCRIPTION_STATUSES,
  WEIGHTED_INTERVALS,
} from "@billing/codes";
import { z } from "zod";
import { cents, currency, instant, jsonObject, jsonValue, taxObject } from "./common";

/** The catalog's objects: billable metrics, add-ons, coupons, plans, features, entitlements, subscriptions. */

export const billableMetricObject = z
  .object({
    svc_id: z.string(),
    name: z.string(),
    code: z.string(),
    description: z.string().nullable(),
    aggregation_type: z.enum(AGGREGATION_TYPES),
    weighted_interval: z.enum(WEIGHTED_INTERVALS).nullable(),
    recurring: z.boolean(),
    rounding_function: z.enum(ROUNDING_FUNCTIONS).nullable(),
    rounding_precision: z.number().int().nullable(),
    created_at: instant,
    field_name: z.string().nullable(),
    expression: z.string().nullable(),
    filters: z.array(z.object({ key: z.string(), values: z.array(z.string()) })),
  })
  .meta({
    id: "BillableMetricObject",
    description: "What usage events are counted as: an aggregation of one event code.",
  });

export const addOnObject = z
  .object({
    svc_id: z.string(),
    name: z.string(),
    invoice_display_name: z.string().nullable(),
    code: z.string(),
    amount_cents: cents,
    amount_currency: currency,
    description: z.string().nullable(),
    created_at: instant,
    taxes: z.array(taxObject),
  })
  .meta({ id: "AddOnObject", description: "A one-off or fixed charge's item." });

export const couponObject = z
  .object({
    svc_id: z.string(),
    name: z.string(),
    code: z.string(),
    description: z.string().nullable(),
    coupon_type: z.enum(["fixed_amount", "percentage"]),
    amount_cents: cents.nullable(),
    amount_currency: currency.nullable(),
    reusable: z.boolean(),
    limited_plans: z.boolean(),
    plan_codes: z.array(z.string()),
    limited_billable_metrics: z.boolean(),
    billable_metric_codes: z.array(z.string()),
    percentage_rate: z.string().nullable().describe("a decimal string"),
    frequency: z.enum(["once", "recurring", "forever"]),
    frequency_duration: z.number().int().nullable(),
    expiration: z.enum(["no_expiration", "time_limit"]),
    expiration_at: instant.nullable(),
    created_at: instant,
    terminated_at: instant.nullable(),
  })
  .meta({ id: "CouponObject" });

export const creditObject = z
  .object({
    svc_id: z.string(),
    amount_cents: cents,
    amount_currency: currency,
    before_taxes: z.boolean(),
    item: z.object({ svc_item_id: z.string(), type: z.string(), code: z.string(), name: z.string() }),
    invoice: z.object({ svc_id: z.string(), payment_status: z.enum(["pending", "succeeded", "failed"]) }),
  })
  .meta({ id: "CreditObject", description: "A coupon's credit on an invoice." });

const appliedCouponShape = {
  svc_id: z.string(),
  svc_coupon_id: z.string(),
  coupon_code: z.string(),
  coupon_name: z.string(),
  svc_customer_id: z.string(),
  external_customer_id: z.string(),
  status: z.enum(["active", "terminated"]),
  amount_cents: cents.nullable(),
  amount_cents_remaining: cents.nullable(),
  amount_currency: currency.nullable(),
  percentage_rate: z.string().nullable(),
  frequency: z.enum(["once", "recurring", "forever"]),
  frequency_duration: z.number().int().nullable(),
  frequency_duration_remaining: z.number().int().nullable(),
  expiration_at: instant.nullable(),
  created_at: instant,
  terminated_at: instant.nullable(),
  coupon_status: z.enum(["active", "terminated"]),
  coupon_deleted_at: instant.nullable(),
};
export const appliedCouponObject = z
  .object(appliedCouponShape)
  .meta({ id: "AppliedCouponObject", description: "A coupon applied to a customer." });
export const appliedCouponObjectExtended = z.object({ ...appliedCouponShape, credits: z.array(creditObject) }).meta({
  id: "AppliedCouponObjectExtended",
  description: "An applied coupon as lists show it: with the credits it gave.",
});

export const invoiceCustomSectionObject = z
  .object({
    svc_id: z.string(),
    name: z.string(),
    code: z.string(),
    description: z.string().nullable(),
    details: z.string().nullable(),
    display_name: z.string().nullable(),
    applied_to_organization: z.boolean(),
    organization_id: z.string(),
    created_at: instant,
  })
  .meta({ id: "InvoiceCustomSectionObject" });

export const appliedInvoiceCustomSectionObject = z
  .object({
    svc_id: z.string(),
    invoice_custom_section_id: z.string(),
    created_at: instant,
    invoice_custom_section: invoiceCustomSectionObject,
  })
  .meta({
    id: "AppliedInvoiceCustomSectionObject",
    description: "An invoice custom section chosen for a resource's invoices (a subscription's, a wallet's).",
  });

export const featurePrivilegeObject = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    value_type: z.enum(["integer", "string", "boolean", "select"]),
    config: z
      .object({ select_options: z.array(z.string()).optional() })
      .describe("a select's options; {} for the other types"),
  })
  .meta({ id: "FeaturePrivilegeObject" });

export const featureObject = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    privileges: z.array(featurePrivilegeObject),
    created_at: instant,
  })
  .meta({ id: "FeatureObject", description: "A feature of the product, and the privileges plans can give in it." });

const privilegeValue = jsonValue.describe(
  "the privilege's value: an integer, a string, a boolean or one of a select's options",
);
const planEntitlementPrivilege = z.object({ ...featurePrivilegeObject.shape, value: privilegeValue });
export const planEntitlementObject = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    privileges: z.array(planEntitlementPrivilege),
  })
  .meta({ id: "PlanEntitlementObject", description: "A feature a plan gives, with the values of its privileges." });

export const subscriptionEntitlementObject = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    privileges: z.array(
      z.object({ ...planEntitlementPrivilege.shape, plan_value: privilegeValue, override_value: z.null() }),
    ),
    overrides: jsonObject,
  })
  .meta({ id: "SubscriptionEntitlementObject" });

const chargeObject = z
  .object({
    svc_id: z.string(),
    svc_billable_metric_id: z.string(),
    billable_metric_code: z.string(),
    code: z.string().nullable(),
    invoice_display_name: z.string().nullable(),
    created_at: instant,
    charge_model: z.enum(CHARGE_MODELS),
    pay_in_advance: z.boolean(),
    invoiceable: z.boolean(),
    regroup_paid_fees: z.enum(["invoice"]).nullable(),
    prorated: z.boolean(),
    min_amount_cents: cents,
    properties: jsonObject.describe("the charge model's properties"),
    filters: z.array(
      z.object({
        invoice_display_name: z.string().nullable(),
        properties: jsonObject,
        values: z.record(z.string(), z.array(z.string())),
      }),
    ),
    taxes: z.array(taxObject),
  })
  .meta({ id: "ChargeObject", description: "A usage-based charge of a plan." });

const fixedChargeObject = z
  .object({
    svc_id: z.string(),
    svc_add_on_id: z.string(),
    code: z.string(),
    invoice_display_name: z.string(),
    add_on_code: z.string(),
    created_at: instant,
    charge_model: z.enum(FIXED_CHARGE_MODELS),
    pay_in_advance: z.boolean(),
    prorated: z.boolean(),
    properties: jsonObject,
    units: z.number(),
    svc_parent_id: z.string().nullable(),
    taxes: z.array(taxObject),
  })
  .meta({ id: "FixedChargeObject", description: "A fixed charge of a plan: units of an add-on each period." });

/** A plan's metadata: the customer's own keys and string values (null: sent as null). */
export const planMetadata = z.record(z.string(), z.string().nullable());

export const planObject = z
  .object({
    svc_id: z.string(),
    name: z.string(),
    code: z.string(),
    invoice_display_name: z.string().nullable(),
    description: z.string().nullable(),
    created_at: instant,
    interval: z.enum(PLAN_INTERVALS),
    amount_cents: cents,
    amount_currency: currency,
    trial_period: z.number().nullable(),
    pay_in_advance: z.boolean(),
    bill_charges_monthly: z.boolean().nullable(),
    bill_fixed_charges_monthly: z.boolean().nullable(),
    minimum_commitment: z
      .object({
        svc_id: z.string(),
        plan_code: z.string(),
        amount_cents: cents,
        invoice_display_name: z.string().nullable(),
        interval: z.enum(PLAN_INTERVALS),
        created_at: instant,
        updated_at: instant,
        taxes: z.array(taxObject),
      })
      .nullable(),
    charges: z.array(chargeObject),
    fixed_charges: z.array(fixedChargeObject),
    taxes: z.array(taxObject),
    usage_thresholds: z.array(
      z.object({
        svc_id: z.string(),
        threshold_display_name: z.string().nullable(),
        amount_cents: cents,
        recurring: z.boolean(),
        created_at: instant,
        updated_at: instant,
      }),
    ),
    entitlements: z.array(z.object({ entitlement: planEntitlementObject })),
    metadata: planMetadata.nullable(),
  })
  .meta({
    id: "PlanObject",
    description: "A plan: its base fee, charges, fixed charges, commitment, thresholds and entitlements.",
  });

const subscriptionShape = {
  svc_id: z.string(),
  external_id: z.string(),
  svc_customer_id: z.string(),
  external_customer_id: z.string(),
  billing_time: z.enum(["calendar", "anniversary"]),
  name: z.string().nullable(),
  plan_code: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  created_at: instant,
  canceled_at: instant.nullable(),
  started_at: instant.nullable(),
  ending_at: instant.nullable(),
  subscription_at: instant,
  terminated_at: instant.nullable(),
  previous_plan_code: z.string().nullable(),
  next_plan_code: z.string().nullable(),
  downgrade_plan_date: z.iso.date().nullable(),
  trial_ended_at: instant.nullable(),
  current_billing_period_started_at: instant.nullable(),
  current_billing_period_ending_at: instant.nullable(),
  on_termination_credit_note: z.enum(["credit", "refund", "offset", "skip"]).nullable(),
  on_termination_invoice: z.enum(["generate", "skip"]),
  progressive_billing_disabled: z.boolean(),
  plan_amount_cents: cents,
  plan_amount_currency: currency,
  applied_invoice_custom_sections: z.array(appliedInvoiceCustomSectionObject),
  payment_method: z.object({ payment_method_type: z.string(), payment_method_id: z.string().nullable() }),
};
export const subscriptionObject = z
  .object(subscriptionShape)
  .meta({ id: "SubscriptionObject", description: "A customer's subscription to a plan, as lists show it." });
export const subscriptionObjectExtended = z
  .object({
    ...subscriptionShape,
    plan: planObject,
    applicable_usage_thresholds: z.array(
      z.object({ threshold_display_name: z.string().nullable(), amount_cents: cents, recurring: z.boolean() }),
    ),
  })
  .meta({
    id: "SubscriptionObjectExtended",
    description: "A subscription with its plan (the answer of a single subscription).",
  });
