import { Decimal, parseDecimal } from "@billing/pricing";

/**
 * What a bucket keeps of its events for the fast aggregation path: the number of events, and per
 * property with numeric values their count, exact sum and maximum — the inputs of count_agg,
 * sum_agg and max_agg (events without a numeric value are ignored, as the pricing library does).
 */
export interface FieldPartial {
  count: number;
  sum: Decimal;
  max: Decimal;
}

export interface BucketPartial {
  events: number;
  fields: Map<string, FieldPartial>;
}

/** Decimal128 holds 34 significant digits; a field beyond them is left to the exact (slow) path. */
export const DECIMAL128_DIGITS = 34;

export function emptyPartial(): BucketPartial {
  return { events: 0, fields: new Map() };
}

function numeric(value: unknown): Decimal | number | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  return parseDecimal(value);
}

/** Adds one event's properties to a partial. */
export function addToPartial(partial: BucketPartial, properties: Record<string, unknown> | null): void {
  partial.events++;
  if (!properties) return;
  for (const key in properties) {
    const value = numeric(properties[key]);
    if (value === null) continue;
    const field = partial.fields.get(key);
    const d = typeof value === "number" ? new Decimal(value) : value;
    if (!field) partial.fields.set(key, { count: 1, sum: d, max: d });
    else {
      field.count++;
      field.sum = field.sum.plus(d);
      if (d.gt(field.max)) field.max = d;
    }
  }
}

/** A decimal that Decimal128 stores exactly, or null. */
export function decimal128Text(value: Decimal): string | null {
  return value.sd(true) <= DECIMAL128_DIGITS ? value.toFixed() : null;
}
