import { z } from "zod";

/**
 * The bodies of GET /invoices/{id}/audit and POST /customers/{id}/simulate_plan: ours (Lago has no
 * such routes), presented from the invoicing service's InvoiceAudit and PlanSimulation messages.
 */

const amounts = z
  .object({
    units: z.string(),
    events_count: z.number().int().nullable(),
    amount_cents: z.number().int(),
    precise_amount_cents: z.string(),
  })
  .strict();

const feeAudit = z
  .object({
    svc_fee_id: z.string().nullable().describe("null: a fee the raw events price that the invoice lacks"),
    fee_type: z.string(),
    derivation: z
      .enum(["raw_events", "not_derived_from_events"])
      .describe(
        "raw_events: re-derived from the stored events; otherwise priced from the plan (subscription, fixed charge, commitment) and not checked",
      ),
    external_subscription_id: z.string(),
    svc_charge_id: z.string().nullable(),
    billable_metric_code: z.string().nullable(),
    charge_model: z.string().nullable(),
    charge_filter_index: z.number().int().nullable(),
    grouped_by: z.record(z.string(), z.string()),
    true_up: z.boolean(),
    from_datetime: z.string().nullable(),
    to_datetime: z.string().nullable(),
    billed_through: z.string().nullable().describe("when the fee's usage was read: events acknowledged later are late"),
    invoiced: amounts.nullable(),
    recomputed: amounts.nullable(),
    match: z.boolean().nullable().describe("null when not derived from events"),
    reason: z.string().nullable().describe("why it does not match (or why it is not derived)"),
  })
  .strict();

const lateEvent = z
  .object({
    svc_id: z.string(),
    transaction_id: z.string(),
    external_subscription_id: z.string(),
    code: z.string(),
    timestamp: z.string(),
    properties: z.record(z.string(), z.unknown()),
    created_at: z.string().describe("when it was acknowledged: after the invoice's usage was read"),
  })
  .strict();

const chargeAudit = z
  .object({
    svc_charge_id: z.string(),
    external_subscription_id: z.string(),
    billable_metric_code: z.string(),
    from_datetime: z.string(),
    to_datetime: z.string(),
    billed_through: z.string().nullable(),
    raw_events_read: z.number().int(),
    late_events_count: z.number().int(),
    late_events: z.array(lateEvent).describe("the first 20, oldest acknowledged first"),
  })
  .strict();

export const invoiceAuditObject = z
  .object({
    svc_invoice_id: z.string(),
    number: z.string(),
    status: z.string(),
    currency: z.string(),
    audited_at: z.string(),
    match: z
      .boolean()
      .describe(
        "every fee re-derived from raw events equals its invoiced fee, and the events price no fee the invoice lacks",
      ),
    mismatches: z.array(
      z
        .object({ svc_fee_id: z.string().nullable(), svc_charge_id: z.string().nullable(), reason: z.string() })
        .strict(),
    ),
    fees_amount_cents: z
      .object({ invoiced: z.number().int(), recomputed: z.number().int() })
      .strict()
      .describe("of the fees re-derived from events"),
    late_events_count: z.number().int(),
    fees: z.array(feeAudit),
    charges: z.array(chargeAudit),
  })
  .strict()
  .meta({
    id: "InvoiceAuditObject",
    description: "A finalized invoice re-derived from the raw events stored for its periods (not in Lago).",
  });

export const invoiceAuditResponse = z.object({ invoice_audit: invoiceAuditObject });

const simulatedFee = z
  .object({
    fee_type: z.string(),
    code: z.string(),
    charge_filter_index: z.number().int().nullable(),
    grouped_by: z.record(z.string(), z.string()),
    units: z.string(),
    events_count: z.number().int().nullable(),
    amount_cents: z.number().int(),
  })
  .strict();

const simulatedPeriod = z
  .object({
    svc_invoice_id: z.string(),
    invoice_number: z.string(),
    issuing_date: z.string(),
    external_subscription_id: z.string(),
    invoicing_reason: z.string(),
    billed_plan_code: z.string(),
    from_datetime: z.string().nullable(),
    to_datetime: z.string().nullable(),
    billed_fees_amount_cents: z
      .number()
      .int()
      .describe("the fees this subscription line was billed, before coupons and taxes"),
    simulated_fees_amount_cents: z
      .number()
      .int()
      .describe("the same line's fees on the simulated plan, before coupons and taxes"),
    difference_amount_cents: z.number().int().describe("simulated − billed"),
    simulated_fees: z.array(simulatedFee),
  })
  .strict();

export const planSimulationObject = z
  .object({
    external_customer_id: z.string(),
    plan_code: z.string(),
    currency: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    billed_fees_amount_cents: z.number().int(),
    simulated_fees_amount_cents: z.number().int(),
    difference_amount_cents: z.number().int(),
    periods: z
      .array(simulatedPeriod)
      .describe("one per subscription line of the customer's finalized subscription invoices, oldest first"),
  })
  .strict()
  .meta({
    id: "PlanSimulationObject",
    description: "A customer's past periods priced on another plan from its stored usage (not in Lago).",
  });
