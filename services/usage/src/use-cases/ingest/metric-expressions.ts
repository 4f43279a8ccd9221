import { ExpressionError, expressionPropertyValue } from "@billing/pricing";
import type { MetricCopy } from "../../domain/read-copies";

/**
 * A metric's expression is evaluated at ingestion and written into properties[field_name]
 * before storage (billing-rules §2). Only metrics with an expression cost anything here. Returns the new properties, or null when unchanged.
 */
export function applyExpression(
  metric: MetricCopy | null | undefined,
  event: { code: string; timestampMs: number; properties: Record<string, unknown> | null },
): { properties: Record<string, unknown> } | { error: string } | null {
  if (!metric?.expression || !metric.field_name) return null;
  const properties = { ...event.properties };
  try {
    properties[metric.field_name] = expressionPropertyValue(metric.expression, {
      code: event.code,
      timestamp: event.timestampMs,
      properties,
    });
    return { properties };
  } catch (err) {
    if (err instanceof ExpressionError) return { error: err.message };
    throw err;
  }
}
