import { AppError } from "@billing/errors";
import { ExpressionError, expressionPropertyValue, isNumeric } from "@billing/pricing";
import type { MetricCopy } from "../../domain/read-copies";

const NUMERIC_AGGREGATIONS = new Set(["sum_agg", "max_agg", "latest_agg"]);

/**
 * The estimated event's properties as ingestion would store them: the metric's expression
 * evaluated into properties[field_name], then (sum/max/latest) a present field_name must be a
 * number → 422 {"properties":["value_is_not_valid_number"]}.
 */
export function eventProperties(
  metric: MetricCopy,
  sent: Record<string, unknown>,
  event: { code: string; timestamp: Date },
) {
  const properties: Record<string, unknown> = { ...sent };
  if (metric.expression && metric.field_name) {
    try {
      properties[metric.field_name] = expressionPropertyValue(metric.expression, { ...event, properties });
    } catch (err) {
      if (err instanceof ExpressionError) throw AppError.validation({ properties: [err.message] });
      throw err;
    }
  }
  const value = metric.field_name ? properties[metric.field_name] : undefined;
  if (NUMERIC_AGGREGATIONS.has(metric.aggregation_type) && value != null && !isNumeric(value)) {
    throw AppError.validation({ properties: ["value_is_not_valid_number"] });
  }
  return properties;
}
