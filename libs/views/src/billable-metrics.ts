import type { CatalogMessages as M } from "@billing/contracts";
import { or } from "./presenting";
import type { billableMetricObject, ViewOf } from "./schemas";

/** Lago's BillableMetricObject. */
export function presentBillableMetric(m: M.BillableMetric__Output) {
  return {
    svc_id: m.svc_id,
    name: m.name,
    code: m.code,
    description: or(m.description),
    aggregation_type: m.aggregation_type,
    weighted_interval: or(m.weighted_interval),
    recurring: m.recurring,
    rounding_function: or(m.rounding_function),
    rounding_precision: or(m.rounding_precision),
    created_at: m.created_at,
    field_name: or(m.field_name),
    expression: or(m.expression),
    filters: (m.filters ?? []).map((f) => ({ key: f.key, values: f.values ?? [] })),
  } satisfies ViewOf<typeof billableMetricObject>;
}
