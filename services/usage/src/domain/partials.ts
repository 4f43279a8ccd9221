import { Decimal, parseDecimal } from "@billing/pricing";

/**
 * What a bucket keeps of its events for the fast aggregation path: the number of events, and for
 * the field its metric aggregates the numeric values' count, exact sum and maximum — the inputs of
 * count_agg, sum_agg and max_agg (events without a numeric value are ignored, as the pricing
 * library does).
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

/** Safe integers are added as numbers while their sum stays exact; anything else goes through Decimal. */
class FieldAccumulator {
  count = 0;
  private ints = 0;
  private intMax = -Infinity;
  private decimals: Decimal | null = null;
  private decimalMax: Decimal | null = null;

  add(value: unknown): void {
    if (
      typeof value === "number" &&
      Number.isSafeInteger(value) &&
      Math.abs(this.ints + value) <= Number.MAX_SAFE_INTEGER
    ) {
      this.count++;
      this.ints += value;
      if (value > this.intMax) this.intMax = value;
      return;
    }
    const d = parseDecimal(value);
    if (d === null) return;
    this.count++;
    this.decimals = this.decimals ? this.decimals.plus(d) : d;
    if (!this.decimalMax || d.gt(this.decimalMax)) this.decimalMax = d;
  }

  partial(): FieldPartial {
    const sum = this.decimals ? this.decimals.plus(this.ints) : new Decimal(this.ints);
    const intMax = this.intMax === -Infinity ? null : new Decimal(this.intMax);
    const max = !intMax ? this.decimalMax! : !this.decimalMax || intMax.gt(this.decimalMax) ? intMax : this.decimalMax;
    return { count: this.count, sum, max };
  }
}

/** Partials of a list of events' properties: their count, and the values of `field` (null: none). */
export function partialOf(
  properties: Iterable<Record<string, unknown> | null | undefined>,
  field: string | null,
): BucketPartial {
  let events = 0;
  const values = new FieldAccumulator();
  for (const p of properties) {
    events++;
    const value = field === null ? undefined : p?.[field];
    if (typeof value === "number" || typeof value === "string") values.add(value);
  }
  const fields = new Map<string, FieldPartial>();
  if (field !== null && values.count > 0) fields.set(field, values.partial());
  return { events, fields };
}

/** A decimal that Decimal128 stores exactly, or null. */
export function decimal128Text(value: Decimal): string | null {
  return value.sd(true) <= DECIMAL128_DIGITS ? value.toFixed() : null;
}
