import { ExpressionError, expressionPropertyValue } from "@billing/pricing";
import type { CatalogCopies } from "../domain/read-copies";

/**
 * A metric's expression is evaluated at ingestion and written into properties[field_name]
 * before storage (billing-rules §2). Only metrics with an expression cost anything here: one
 * in-memory lookup per event otherwise. Returns the new properties, or null when unchanged.
 */
export function applyExpression(
  copies: CatalogCopies | undefined,
  event: { organizationId: string; code: string; timestampMs: number; properties: Record<string, unknown> | null },
): { properties: Record<string, unknown> } | { error: string } | null {
  const metric = copies?.metricByCode(event.organizationId, event.code);
  if (!metric?.expression || !metric.field_name) return null;
  const properties = { ...event.properties };
  try {
    properties[metric.field_name] = expressionPropertyValue(metric.expression, { code: event.code, timestamp: event.timestampMs, properties });
    return { properties };
  } catch (err) {
    if (err instanceof ExpressionError) return { error: err.message };
    throw err;
  }
}
