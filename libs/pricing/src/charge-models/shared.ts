import { type Decimal, type DecimalLike, ZERO, toDecimal } from "../decimal";

/** The unit_amount denominator of most models: full_units_number when set, else units. */
export function unitAmountBase(input: { units: Decimal; fullUnitsNumber?: Decimal | undefined }): Decimal {
  return input.fullUnitsNumber ?? input.units;
}

export function readDecimal(properties: Record<string, unknown>, key: string, fallback: Decimal = ZERO): Decimal {
  return toDecimal(properties[key] as DecimalLike | null | undefined, fallback);
}

export function readOptionalDecimal(properties: Record<string, unknown>, key: string): Decimal | null {
  const value = properties[key];
  if (value === null || value === undefined || value === "") return null;
  return toDecimal(value as DecimalLike);
}
