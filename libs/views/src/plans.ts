import { chargeFilterFromProto, chargePropertiesFromProto, type CatalogMessages as M } from "@billing/contracts";
import { or, presentTax } from "./presenting";
import { presentPlanEntitlement } from "./entitlements";
import { planMetadata, type planObject, type ViewOf } from "./schemas";

function presentCharge(c: M.Charge__Output) {
  return {
    svc_id: c.svc_id,
    svc_billable_metric_id: c.svc_billable_metric_id,
    billable_metric_code: c.billable_metric_code,
    code: or(c.code),
    invoice_display_name: or(c.invoice_display_name),
    created_at: c.created_at,
    charge_model: c.charge_model,
    pay_in_advance: c.pay_in_advance,
    invoiceable: c.invoiceable,
    regroup_paid_fees: or(c.regroup_paid_fees),
    prorated: c.prorated,
    min_amount_cents: c.min_amount_cents,
    properties: chargePropertiesFromProto(c.properties),
    filters: (c.filters ?? []).map(chargeFilterFromProto),
    taxes: (c.taxes ?? []).map(presentTax),
  };
}

function presentFixedCharge(f: M.FixedCharge__Output) {
  return {
    svc_id: f.svc_id,
    svc_add_on_id: f.svc_add_on_id,
    code: f.code ?? f.add_on_code,
    invoice_display_name: f.invoice_display_name ?? "",
    add_on_code: f.add_on_code,
    created_at: f.created_at,
    charge_model: f.charge_model,
    pay_in_advance: f.pay_in_advance,
    prorated: f.prorated,
    properties: chargePropertiesFromProto(f.properties),
    units: f.units,
    svc_parent_id: null,
    taxes: (f.taxes ?? []).map(presentTax),
  };
}

/**
 * Lago's PlanObject, entitlements included. An optional value that is not set
 * is sent as null (description, invoice_display_name, trial_period), as Lago's server does, although
 * the OpenAPI document types those keys as non-null.
 */
export function presentPlan(p: M.Plan__Output) {
  const mc = p.minimum_commitment;
  return {
    svc_id: p.svc_id,
    name: p.name,
    code: p.code,
    invoice_display_name: or(p.invoice_display_name),
    description: or(p.description),
    created_at: p.created_at,
    interval: p.interval,
    amount_cents: p.amount_cents,
    amount_currency: p.amount_currency,
    trial_period: or(p.trial_period),
    pay_in_advance: p.pay_in_advance,
    bill_charges_monthly: or(p.bill_charges_monthly),
    bill_fixed_charges_monthly: or(p.bill_fixed_charges_monthly),
    minimum_commitment: mc
      ? {
          svc_id: mc.svc_id,
          plan_code: mc.plan_code,
          amount_cents: mc.amount_cents,
          invoice_display_name: or(mc.invoice_display_name),
          interval: mc.interval,
          created_at: mc.created_at,
          updated_at: mc.updated_at,
          taxes: (mc.taxes ?? []).map(presentTax),
        }
      : null,
    charges: (p.charges ?? []).map(presentCharge),
    fixed_charges: (p.fixed_charges ?? []).map(presentFixedCharge),
    taxes: (p.taxes ?? []).map(presentTax),
    usage_thresholds: (p.usage_thresholds ?? []).map((t) => ({
      svc_id: t.svc_id,
      threshold_display_name: or(t.threshold_display_name),
      amount_cents: t.amount_cents,
      recurring: t.recurring,
      created_at: t.created_at,
      updated_at: t.updated_at,
    })),
    entitlements: (p.entitlements ?? []).map((e) => ({ entitlement: presentPlanEntitlement(e) })),
    // the customer's own object, as stored: read with its schema
    metadata: p.metadata_json ? planMetadata.parse(JSON.parse(p.metadata_json)) : null,
  } satisfies ViewOf<typeof planObject>;
}
