import type { InvoicingMessages as M } from "@billing/contracts";
import { filterValues, or } from "./presenting";
import type { customerUsageObject, ViewOf } from "./schemas";

const presentFilterUsage = (f: M.ChargeFilterUsage__Output) => ({
  units: f.units,
  total_aggregated_units: f.total_aggregated_units,
  events_count: f.events_count,
  amount_cents: f.amount_cents,
  invoice_display_name: or(f.invoice_display_name),
  values: filterValues(f.values),
});

/** Lago's CustomerUsageObject: a subscription's usage over one billing period, charge by charge (current or past usage). */
export function presentCustomerUsage(u: M.CustomerUsage__Output) {
  return {
    from_datetime: u.from_datetime,
    to_datetime: u.to_datetime,
    issuing_date: u.issuing_date,
    svc_invoice_id: or(u.svc_invoice_id),
    currency: u.currency,
    amount_cents: u.amount_cents,
    taxes_amount_cents: u.taxes_amount_cents,
    total_amount_cents: u.total_amount_cents,
    charges_usage: u.charges_usage.map((c) => ({
      units: c.units,
      total_aggregated_units: c.total_aggregated_units,
      events_count: c.events_count,
      amount_cents: c.amount_cents,
      amount_currency: c.amount_currency,
      charge: {
        svc_id: c.charge?.svc_id ?? "",
        charge_model: c.charge?.charge_model ?? "",
        invoice_display_name: or(c.charge?.invoice_display_name),
      },
      billable_metric: {
        svc_id: c.billable_metric?.svc_id ?? "",
        name: c.billable_metric?.name ?? "",
        code: c.billable_metric?.code ?? "",
        aggregation_type: c.billable_metric?.aggregation_type ?? "",
      },
      filters: c.filters.map(presentFilterUsage),
      grouped_usage: c.grouped_usage.map((g) => ({
        amount_cents: g.amount_cents,
        events_count: g.events_count,
        units: g.units,
        total_aggregated_units: g.total_aggregated_units,
        grouped_by: g.grouped_by,
        filters: g.filters.map(presentFilterUsage),
      })),
      pricing_unit_details: null,
    })),
  } satisfies ViewOf<typeof customerUsageObject>;
}
