import type { InvoicingMessages as M } from "@billing/contracts";
import type { Nullable } from "@billing/grpc";
import type { CustomerUsageView, FilterUsage } from "../domain/customer-usage";

/** Domain → proto for customer usage: Lago's CustomerUsageObject, field for field. */

const filterMessage = (f: FilterUsage): Nullable<M.ChargeFilterUsage> => ({
  units: f.units,
  total_aggregated_units: f.total_aggregated_units,
  events_count: f.events_count,
  amount_cents: f.amount_cents,
  invoice_display_name: f.invoice_display_name,
  values: Object.fromEntries(Object.entries(f.values).map(([k, values]) => [k, { values }])),
});

export function usageMessage(usage: CustomerUsageView): Nullable<M.CustomerUsage> {
  return {
    from_datetime: usage.from.toISOString(),
    to_datetime: usage.to.toISOString(),
    issuing_date: usage.issuing_date,
    svc_invoice_id: usage.invoice_id,
    currency: usage.currency,
    amount_cents: usage.amount_cents,
    taxes_amount_cents: usage.taxes_amount_cents,
    total_amount_cents: usage.total_amount_cents,
    charges_usage: usage.charges.map((c) => ({
      units: c.units,
      total_aggregated_units: c.total_aggregated_units,
      events_count: c.events_count,
      amount_cents: c.amount_cents,
      amount_currency: usage.currency,
      charge: {
        svc_id: c.charge.id,
        charge_model: c.charge.charge_model,
        invoice_display_name: c.charge.invoice_display_name,
      },
      billable_metric: {
        svc_id: c.metric.id,
        name: c.metric.name,
        code: c.metric.code,
        aggregation_type: c.metric.aggregation_type,
      },
      filters: c.filters.map(filterMessage),
      grouped_usage: c.grouped.map((g) => ({
        amount_cents: g.amount_cents,
        events_count: g.events_count,
        units: g.units,
        total_aggregated_units: g.total_aggregated_units,
        grouped_by: g.grouped_by,
        filters: g.filters.map(filterMessage),
      })),
    })),
  };
}
