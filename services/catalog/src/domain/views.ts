import type { AddOn, BillableMetric, Coupon, Tax } from "./types";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The public view of each catalog record (the API's field names; null where Lago sends null). */
export function taxView(t: Tax) {
  return {
    svc_id: t.id, name: t.name, code: t.code, description: t.description, rate: t.rate,
    applied_to_organization: t.applied_to_organization, created_at: t.created_at.toISOString(), updated_at: t.updated_at.toISOString(),
  };
}
export type TaxView = ReturnType<typeof taxView>;

export function billableMetricView(m: BillableMetric) {
  return {
    svc_id: m.id, name: m.name, code: m.code, description: m.description, aggregation_type: m.aggregation_type,
    field_name: m.field_name, recurring: m.recurring, rounding_function: m.rounding_function,
    rounding_precision: m.rounding_precision, weighted_interval: m.weighted_interval, expression: m.expression,
    filters: m.filters.map((f) => ({ key: f.key, values: [...f.values] })),
    created_at: m.created_at.toISOString(), updated_at: m.updated_at.toISOString(), deleted_at: iso(m.deleted_at),
  };
}
export type BillableMetricView = ReturnType<typeof billableMetricView>;

/** `taxes` are the add-on's live taxes, resolved from its tax ids. */
export function addOnView(a: AddOn, taxes: Tax[]) {
  return {
    svc_id: a.id, name: a.name, code: a.code, invoice_display_name: a.invoice_display_name, description: a.description,
    amount_cents: a.amount_cents, amount_currency: a.amount_currency, taxes: taxes.map(taxView),
    created_at: a.created_at.toISOString(), updated_at: a.updated_at.toISOString(), deleted_at: iso(a.deleted_at),
  };
}

/** `billableMetricCodes` are the live codes of the metrics the coupon is limited to. */
export function couponView(c: Coupon, billableMetricCodes: string[]) {
  return {
    svc_id: c.id, name: c.name, code: c.code, description: c.description, coupon_type: c.coupon_type,
    amount_cents: c.amount_cents, amount_currency: c.amount_currency, percentage_rate: c.percentage_rate,
    reusable: c.reusable, limited_plans: c.limited_plans, plan_codes: [...c.plan_codes],
    limited_billable_metrics: c.limited_billable_metrics, billable_metric_codes: billableMetricCodes,
    frequency: c.frequency, frequency_duration: c.frequency_duration, expiration: c.expiration,
    expiration_at: iso(c.expiration_at), status: c.status, created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(), terminated_at: iso(c.terminated_at),
  };
}
