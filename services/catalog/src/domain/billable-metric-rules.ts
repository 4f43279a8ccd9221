import { AGGREGATION_TYPES, ROUNDING_FUNCTIONS, WEIGHTED_INTERVALS } from "@billing/codes";
import { ExpressionError, parseExpression } from "@billing/pricing";
import { Violations } from "./patch";
import type { BillableMetric } from "./types";

export const BILLABLE_METRIC_PATCHABLE = [
  "name",
  "code",
  "description",
  "aggregation_type",
  "field_name",
  "recurring",
  "rounding_function",
  "rounding_precision",
  "weighted_interval",
  "expression",
  "filters",
] as const;

/** Aggregations whose units cannot carry over from one period to the next. */
const NEVER_RECURRING = ["count_agg", "max_agg", "latest_agg"];

/** Fills what Lago fills: weighted sums weigh per second unless told otherwise; blank expressions are none; recurring is false unless true. */
export function normalizeBillableMetric(metric: BillableMetric): BillableMetric {
  const weighted = metric.aggregation_type === "weighted_sum_agg";
  return {
    ...metric,
    // null (sent to clear it) is Lago's default, not a third value: events and views carry a boolean
    recurring: metric.recurring ?? false,
    weighted_interval: weighted ? (metric.weighted_interval ?? "seconds") : null,
    expression: metric.expression?.trim() ? metric.expression : null,
    filters: metric.filters.map((f) => ({ key: f.key, values: [...new Set(f.values)] })),
  };
}

/** True when a metric expression parses with the pricing library's parser. */
export function isValidExpression(expression: string): boolean {
  try {
    parseExpression(expression);
    return true;
  } catch (err) {
    if (err instanceof ExpressionError) return false;
    throw err;
  }
}

/** The invariants of every stored billable metric. Returns Lago's error_details, or null. */
export function billableMetricViolations(metric: BillableMetric): Record<string, string[]> | null {
  const v = new Violations();
  v.mandatory("name", metric.name);
  v.mandatory("code", metric.code);
  if (v.mandatory("aggregation_type", metric.aggregation_type)) {
    v.oneOf("aggregation_type", metric.aggregation_type, AGGREGATION_TYPES);
    if (metric.aggregation_type !== "count_agg") v.mandatory("field_name", metric.field_name);
    if (metric.recurring && NEVER_RECURRING.includes(metric.aggregation_type))
      v.add("recurring", "not_compatible_with_aggregation_type");
  }
  v.oneOf("rounding_function", metric.rounding_function, ROUNDING_FUNCTIONS);
  if (metric.rounding_precision !== null && !Number.isInteger(metric.rounding_precision))
    v.add("rounding_precision", "value_is_invalid");
  v.oneOf("weighted_interval", metric.weighted_interval, WEIGHTED_INTERVALS);
  if (metric.expression !== null && !isValidExpression(metric.expression)) v.add("expression", "invalid_expression");
  const keys = new Set<string>();
  for (const filter of metric.filters) {
    if (!filter.key.trim() || filter.values.length === 0 || filter.values.some((value) => !value.trim()))
      v.add("filters", "value_is_mandatory");
    if (keys.has(filter.key)) v.add("filters", "value_is_invalid");
    keys.add(filter.key);
  }
  return v.result();
}
