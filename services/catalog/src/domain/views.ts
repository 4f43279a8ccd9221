import type { PlanEntitlementView } from "./feature-view";
import type { AddOn, BillableMetric, Coupon, Plan, Tax } from "./types";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The public view of each catalog record (the API's field names; null where Lago sends null). */
export function taxView(t: Tax) {
  return {
    svc_id: t.id,
    name: t.name,
    code: t.code,
    description: t.description,
    rate: t.rate,
    applied_to_organization: t.applied_to_organization,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}
export type TaxView = ReturnType<typeof taxView>;

export function billableMetricView(m: BillableMetric) {
  return {
    svc_id: m.id,
    name: m.name,
    code: m.code,
    description: m.description,
    aggregation_type: m.aggregation_type,
    field_name: m.field_name,
    recurring: m.recurring,
    rounding_function: m.rounding_function,
    rounding_precision: m.rounding_precision,
    weighted_interval: m.weighted_interval,
    expression: m.expression,
    filters: m.filters.map((f) => ({ key: f.key, values: [...f.values] })),
    created_at: m.created_at.toISOString(),
    updated_at: m.updated_at.toISOString(),
    deleted_at: iso(m.deleted_at),
  };
}
export type BillableMetricView = ReturnType<typeof billableMetricView>;

/** `taxes` are the add-on's live taxes, resolved from its tax ids. */
export function addOnView(a: AddOn, taxes: Tax[]) {
  return {
    svc_id: a.id,
    name: a.name,
    code: a.code,
    invoice_display_name: a.invoice_display_name,
    description: a.description,
    amount_cents: a.amount_cents,
    amount_currency: a.amount_currency,
    taxes: taxes.map(taxView),
    created_at: a.created_at.toISOString(),
    updated_at: a.updated_at.toISOString(),
    deleted_at: iso(a.deleted_at),
  };
}

/** `billableMetricCodes` are the live codes of the metrics the coupon is limited to. */
export function couponView(c: Coupon, billableMetricCodes: string[]) {
  return {
    svc_id: c.id,
    name: c.name,
    code: c.code,
    description: c.description,
    coupon_type: c.coupon_type,
    amount_cents: c.amount_cents,
    amount_currency: c.amount_currency,
    percentage_rate: c.percentage_rate,
    reusable: c.reusable,
    limited_plans: c.limited_plans,
    plan_codes: [...c.plan_codes],
    limited_billable_metrics: c.limited_billable_metrics,
    billable_metric_codes: billableMetricCodes,
    frequency: c.frequency,
    frequency_duration: c.frequency_duration,
    expiration: c.expiration,
    expiration_at: iso(c.expiration_at),
    status: c.status,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    terminated_at: iso(c.terminated_at),
  };
}

/** What a plan's view needs besides the plan: its live taxes and the live codes of its metrics and add-ons. */
export interface PlanRefs {
  taxes: Map<string, Tax>;
  metricCodes: Map<string, string>;
  addOnCodes: Map<string, string>;
  /** The add-ons' names: what a fixed charge's fee is called on an invoice (carried by plan events, not shown by the API). */
  addOnNames?: Map<string, string>;
  /** Entitlement views by plan id (a subscription's private plan shows its parent's). */
  entitlements?: Map<string, PlanEntitlementView[]>;
}

const taxesOf = (ids: string[], refs: PlanRefs) => ids.flatMap((id) => refs.taxes.get(id) ?? []).map(taxView);

export function planView(p: Plan, refs: PlanRefs) {
  const mc = p.minimum_commitment;
  return {
    svc_id: p.id,
    name: p.name,
    code: p.code,
    description: p.description,
    invoice_display_name: p.invoice_display_name,
    interval: p.interval,
    amount_cents: p.amount_cents,
    amount_currency: p.amount_currency,
    trial_period: p.trial_period,
    pay_in_advance: p.pay_in_advance,
    bill_charges_monthly: p.bill_charges_monthly,
    bill_fixed_charges_monthly: p.bill_fixed_charges_monthly,
    taxes: taxesOf(p.tax_ids, refs),
    minimum_commitment: mc
      ? {
          svc_id: mc.id,
          plan_code: p.code,
          amount_cents: mc.amount_cents,
          invoice_display_name: mc.invoice_display_name,
          interval: p.interval,
          taxes: taxesOf(mc.tax_ids, refs),
          created_at: mc.created_at.toISOString(),
          updated_at: mc.updated_at.toISOString(),
        }
      : null,
    usage_thresholds: p.usage_thresholds.map((t) => ({
      svc_id: t.id,
      threshold_display_name: t.threshold_display_name,
      amount_cents: t.amount_cents,
      recurring: t.recurring,
      created_at: t.created_at.toISOString(),
      updated_at: t.updated_at.toISOString(),
    })),
    charges: p.charges.map((c) => ({
      svc_id: c.id,
      svc_billable_metric_id: c.billable_metric_id,
      billable_metric_code: refs.metricCodes.get(c.billable_metric_id) ?? c.billable_metric_code,
      code: c.code,
      charge_model: c.charge_model,
      pay_in_advance: c.pay_in_advance,
      invoiceable: c.invoiceable,
      prorated: c.prorated,
      min_amount_cents: c.min_amount_cents,
      regroup_paid_fees: c.regroup_paid_fees,
      invoice_display_name: c.invoice_display_name,
      properties: c.properties,
      filters: c.filters.map((f) => ({
        invoice_display_name: f.invoice_display_name,
        properties: f.properties,
        values: f.values,
      })),
      taxes: taxesOf(c.tax_ids, refs),
      created_at: c.created_at.toISOString(),
    })),
    fixed_charges: p.fixed_charges.map((f) => ({
      svc_id: f.id,
      svc_add_on_id: f.add_on_id,
      add_on_code: refs.addOnCodes.get(f.add_on_id) ?? f.add_on_code,
      add_on_name: refs.addOnNames?.get(f.add_on_id) ?? null,
      code: f.code,
      charge_model: f.charge_model,
      pay_in_advance: f.pay_in_advance,
      prorated: f.prorated,
      units: f.units,
      invoice_display_name: f.invoice_display_name,
      properties: f.properties,
      taxes: taxesOf(f.tax_ids, refs),
      created_at: f.created_at.toISOString(),
    })),
    entitlements: refs.entitlements?.get(p.parent_id ?? p.id) ?? [],
    metadata: p.metadata,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
    deleted_at: iso(p.deleted_at),
  };
}
export type PlanView = ReturnType<typeof planView>;
