import { FEE_TYPES, INVOICING_REASONS } from "@billing/codes";
import { z } from "zod";
import { cents, currency, day, decimalText, instant, jsonObject } from "./common";
import { creditObject, subscriptionObject } from "./catalog";

/**
 * Invoices and their fees, listed fees and customer usage (presented by the gateway from the
 * invoicing service's typed messages: invoices.ts, customer-usage.ts), and the objects the usage
 * service still writes as the API's JSON itself (the gateway passes their text through): usage
 * events, estimated fees.
 */

const paymentStatus = z.enum(["pending", "succeeded", "failed"]);

const feeItem = z.object({
  type: z.enum(FEE_TYPES),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  invoice_display_name: z.string(),
  filter_invoice_display_name: z.string().nullable(),
  filters: z.record(z.string(), z.array(z.string())).nullable().describe("the charge filter's values the fee bills"),
  svc_item_id: z.string(),
  item_type: z.enum(["Subscription", "BillableMetric", "AddOn", "WalletTransaction"]),
  grouped_by: z.record(z.string(), z.string()),
});

const feeAppliedTax = {
  svc_id: z.string(),
  svc_tax_id: z.string().nullable(),
  tax_name: z.string(),
  tax_code: z.string(),
  tax_rate: z.number(),
  tax_description: z.string().nullable(),
  amount_cents: cents,
  amount_currency: currency,
  created_at: instant,
};

const feeShape = {
  svc_id: z.string(),
  svc_charge_id: z.string().nullable(),
  svc_charge_filter_id: z.string().nullable(),
  svc_fixed_charge_id: z.string().nullable(),
  svc_invoice_id: z.string(),
  svc_true_up_fee_id: z.string().nullable(),
  svc_true_up_parent_fee_id: z.string().nullable(),
  svc_subscription_id: z.string().nullable(),
  svc_customer_id: z.string(),
  external_customer_id: z.string(),
  external_subscription_id: z.string().nullable(),
  amount_cents: cents,
  precise_amount: decimalText,
  precise_total_amount: decimalText,
  amount_currency: currency,
  taxes_amount_cents: cents,
  taxes_precise_amount: decimalText,
  taxes_rate: z.number(),
  units: decimalText,
  precise_unit_amount: decimalText,
  total_aggregated_units: decimalText,
  total_amount_cents: cents,
  total_amount_currency: currency,
  events_count: z.number().int().nullable(),
  pay_in_advance: z.boolean(),
  invoiceable: z.boolean(),
  from_date: instant.nullable(),
  to_date: instant.nullable(),
  payment_status: paymentStatus,
  created_at: instant,
  succeeded_at: instant.nullable(),
  failed_at: instant.nullable(),
  refunded_at: instant.nullable(),
  event_transaction_id: z.string().nullable(),
  description: z.string().nullable(),
  precise_coupons_amount_cents: decimalText,
  sub_total_excluding_taxes_amount_cents: cents,
  sub_total_excluding_taxes_precise_amount_cents: decimalText,
  amount_details: jsonObject.describe(
    "how the charge model priced it (Lago's FeeAmountDetails: units, ranges, rates…)",
  ),
  self_billed: z.boolean(),
  item: feeItem,
  applied_taxes: z.array(z.object({ ...feeAppliedTax, svc_fee_id: z.string() })),
};

export const feeObject = z
  .object({ ...feeShape, properties: jsonObject.describe("the charge properties it was priced with") })
  .meta({
    id: "FeeObject",
    description: "A fee of an invoice: a base fee, a charge, a fixed charge, a commitment true-up or credits.",
  });

export const feeEstimateObject = z
  .object({
    ...feeShape,
    svc_id: z.null(),
    svc_invoice_id: z.null(),
    created_at: z.null(),
    invoice_display_name: z.string().nullable(),
    pricing_unit_details: z.null(),
    applied_taxes: z.array(z.object({ ...feeAppliedTax, svc_fee_id: z.null() })),
  })
  .meta({
    id: "FeeEstimateObject",
    description: "The pay-in-advance fee an event would bring, priced now and never stored.",
  });

export const invoiceObject = z
  .object({
    svc_id: z.string(),
    billing_entity_code: z.string().nullable(),
    sequential_id: z.number().int().nullable(),
    number: z.string(),
    issuing_date: day,
    payment_dispute_lost_at: instant.nullable(),
    payment_due_date: day,
    payment_overdue: z.boolean(),
    net_payment_term: z.number().int(),
    invoice_type: z.enum(["subscription", "add_on", "credit", "one_off", "advance_charges", "progressive_billing"]),
    status: z.enum(["draft", "finalized", "voided", "failed", "pending", "deleted"]),
    payment_status: paymentStatus,
    currency,
    fees_amount_cents: cents,
    coupons_amount_cents: cents,
    credit_notes_amount_cents: cents,
    sub_total_excluding_taxes_amount_cents: cents,
    taxes_amount_cents: cents,
    sub_total_including_taxes_amount_cents: cents,
    prepaid_credit_amount_cents: cents,
    prepaid_granted_credit_amount_cents: cents,
    prepaid_purchased_credit_amount_cents: cents,
    progressive_billing_credit_amount_cents: cents,
    total_amount_cents: cents,
    version_number: z.number().int(),
    self_billed: z.boolean(),
    file_url: z.string().nullable(),
    web_url: z.string().nullable(),
    created_at: instant,
    updated_at: instant,
    customer: z.object({
      svc_id: z.string(),
      sequential_id: z.number().int(),
      slug: z.string().nullable(),
      external_id: z.string(),
      billing_entity_code: z.string().nullable(),
      name: z.string().nullable(),
      email: z.string().nullable(),
      currency: z.string().nullable(),
      country: z.string().nullable(),
      timezone: z.string().nullable(),
      applicable_timezone: z.string(),
      net_payment_term: z.number().int().nullable(),
      finalize_zero_amount_invoice: z.string().nullable(),
      created_at: instant,
      updated_at: instant,
    }),
    metadata: z.array(z.object({ svc_id: z.string(), key: z.string(), value: z.string(), created_at: instant })),
    applied_taxes: z.array(z.object({ ...feeAppliedTax, svc_invoice_id: z.string(), fees_amount_cents: cents })),
    billing_periods: z.array(
      z.object({
        svc_subscription_id: z.string(),
        external_subscription_id: z.string(),
        svc_plan_id: z.string(),
        subscription_from_datetime: instant,
        subscription_to_datetime: instant,
        charges_from_datetime: instant,
        charges_to_datetime: instant,
        invoicing_reason: z.enum(INVOICING_REASONS),
      }),
    ),
    credits: z.array(creditObject),
    fees: z.array(feeObject),
    taxes_rate: z.number(),
    expected_finalization_date: day.nullable(),
    total_paid_amount_cents: cents,
    total_due_amount_cents: cents,
    total_overpaid_amount_cents: cents.describe(
      "not Lago's: what succeeded provider payments brought beyond the invoice's total (paid or credited meanwhile); each payment's part is given back",
    ),
    applied_invoice_custom_sections: z.array(
      z
        .object({
          svc_id: z.string(),
          svc_invoice_id: z.string(),
          code: z.string(),
          details: z.string(),
          display_name: z.string(),
          created_at: instant,
        })
        .describe("a custom section the invoice shows, as it was when the invoice was finalized"),
    ),
    applied_usage_thresholds: z.array(jsonObject),
    subscriptions: z.array(subscriptionObject).describe("the subscriptions it bills, as they are now (without plan)"),
    error_details: z.array(jsonObject),
  })
  .meta({
    id: "InvoiceObject",
    description: "An invoice: its subscriptions' billing periods, fees, coupons, taxes, credits and amounts due.",
  });

const usageFigures = {
  units: decimalText,
  total_aggregated_units: decimalText,
  events_count: z.number().int(),
  amount_cents: cents,
};
const filterUsage = z.object({
  ...usageFigures,
  invoice_display_name: z.string().nullable(),
  values: z.record(z.string(), z.array(z.string())).describe("the filter's values; {} for the usage no filter matched"),
});

export const customerUsageObject = z
  .object({
    from_datetime: instant,
    to_datetime: instant,
    issuing_date: day,
    svc_invoice_id: z.string().nullable(),
    currency,
    amount_cents: cents,
    taxes_amount_cents: cents,
    total_amount_cents: cents,
    charges_usage: z.array(
      z.object({
        ...usageFigures,
        amount_currency: currency,
        charge: z.object({ svc_id: z.string(), charge_model: z.string(), invoice_display_name: z.string().nullable() }),
        billable_metric: z.object({
          svc_id: z.string(),
          name: z.string(),
          code: z.string(),
          aggregation_type: z.string(),
        }),
        filters: z.array(filterUsage),
        grouped_usage: z.array(
          z.object({ ...usageFigures, grouped_by: z.record(z.string(), z.string()), filters: z.array(filterUsage) }),
        ),
        pricing_unit_details: z.null(),
      }),
    ),
  })
  .meta({
    id: "CustomerUsageObject",
    description: "A subscription's usage over one billing period, charge by charge, as it would be invoiced.",
  });

export const eventObject = z
  .object({
    svc_id: z.string(),
    transaction_id: z.string(),
    svc_customer_id: z.null(),
    svc_subscription_id: z.null(),
    external_subscription_id: z.string(),
    code: z.string(),
    timestamp: instant,
    properties: jsonObject,
    precise_total_amount_cents: decimalText.nullable(),
    created_at: instant,
  })
  .meta({ id: "EventObject", description: "A usage event as stored (once per transaction_id and subscription)." });
