import { parseDecimal } from "@billing/pricing";

/** A plain decimal string (no exponent) for a numeric value, or null when it is not a number. */
export function normalizedDecimal(value: string | null): string | null {
  if (value === null) return null;
  const d = parseDecimal(value);
  return d ? d.toFixed() : null;
}
