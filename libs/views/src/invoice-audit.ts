import { customerObjectOfText, type InvoicingMessages as M } from "@billing/contracts";
import type { invoiceAuditObject, planSimulationObject, ViewOf } from "./schemas";

/** Our own bodies (not in Lago): GET /invoices/{id}/audit and POST /customers/{id}/simulate_plan, from the invoicing service's messages. */

const amounts = (a: M.AuditAmounts__Output | null | undefined) =>
  a
    ? {
        units: a.units,
        events_count: a.events_count ?? null,
        amount_cents: a.amount_cents,
        precise_amount_cents: a.precise_amount_cents,
      }
    : null;

const feeAudit = (f: M.FeeAudit__Output) => ({
  svc_fee_id: f.svc_fee_id ?? null,
  fee_type: f.fee_type,
  derivation: f.derivation as "raw_events" | "not_derived_from_events",
  external_subscription_id: f.external_subscription_id,
  svc_charge_id: f.svc_charge_id ?? null,
  billable_metric_code: f.billable_metric_code ?? null,
  charge_model: f.charge_model ?? null,
  charge_filter_index: f.charge_filter_index ?? null,
  grouped_by: f.grouped_by,
  true_up: f.true_up,
  from_datetime: f.from_datetime ?? null,
  to_datetime: f.to_datetime ?? null,
  billed_through: f.billed_through ?? null,
  invoiced: amounts(f.invoiced),
  recomputed: amounts(f.recomputed),
  match: f.match ?? null,
  reason: f.reason ?? null,
});

const chargeAudit = (c: M.ChargeAudit__Output) => ({
  svc_charge_id: c.svc_charge_id,
  external_subscription_id: c.external_subscription_id,
  billable_metric_code: c.billable_metric_code,
  from_datetime: c.from_datetime,
  to_datetime: c.to_datetime,
  billed_through: c.billed_through ?? null,
  raw_events_read: c.raw_events_read,
  late_events_count: c.late_events_count,
  late_events: c.late_events.map((e) => ({
    svc_id: e.svc_id,
    transaction_id: e.transaction_id,
    external_subscription_id: e.external_subscription_id,
    code: e.code,
    // the customer's own JSON object, checked with its schema
    timestamp: e.timestamp,
    properties: customerObjectOfText(e.properties_json),
    created_at: e.created_at,
  })),
});

export const presentInvoiceAudit = (a: M.InvoiceAudit__Output) =>
  ({
    svc_invoice_id: a.svc_invoice_id,
    number: a.number,
    status: a.status,
    currency: a.currency,
    audited_at: a.audited_at,
    match: a.match,
    mismatches: a.mismatches.map((m) => ({
      svc_fee_id: m.svc_fee_id ?? null,
      svc_charge_id: m.svc_charge_id ?? null,
      reason: m.reason,
    })),
    fees_amount_cents: { invoiced: a.invoiced_fees_amount_cents, recomputed: a.recomputed_fees_amount_cents },
    late_events_count: a.late_events_count,
    fees: a.fees.map(feeAudit),
    charges: a.charges.map(chargeAudit),
  }) satisfies ViewOf<typeof invoiceAuditObject>;

export const presentPlanSimulation = (s: M.PlanSimulation__Output) =>
  ({
    external_customer_id: s.external_customer_id,
    plan_code: s.plan_code,
    currency: s.currency,
    from: s.from ?? null,
    to: s.to ?? null,
    billed_fees_amount_cents: s.billed_fees_amount_cents,
    simulated_fees_amount_cents: s.simulated_fees_amount_cents,
    difference_amount_cents: s.difference_amount_cents,
    periods: s.periods.map((p) => ({
      svc_invoice_id: p.svc_invoice_id,
      invoice_number: p.invoice_number,
      issuing_date: p.issuing_date,
      external_subscription_id: p.external_subscription_id,
      invoicing_reason: p.invoicing_reason,
      billed_plan_code: p.billed_plan_code,
      from_datetime: p.from_datetime ?? null,
      to_datetime: p.to_datetime ?? null,
      billed_fees_amount_cents: p.billed_fees_amount_cents,
      simulated_fees_amount_cents: p.simulated_fees_amount_cents,
      difference_amount_cents: p.difference_amount_cents,
      simulated_fees: p.simulated_fees.map((f) => ({
        fee_type: f.fee_type,
        code: f.code,
        charge_filter_index: f.charge_filter_index ?? null,
        grouped_by: f.grouped_by,
        units: f.units,
        events_count: f.events_count ?? null,
        amount_cents: f.amount_cents,
      })),
    })),
  }) satisfies ViewOf<typeof planSimulationObject>;
