import { Decimal, type DecimalLike, toDecimal } from "./decimal";

/**
 * Lago quirk: a handful of its steps are IEEE-754 double arithmetic (Ruby `Float`, `fdiv`),
 * not BigDecimal. Reproducing them with JS numbers gives the same float tails Lago stores
 * (e.g. 283.8709677419355). Every use is named here so the rest of the library stays decimal.
 */

/** Ruby `a.fdiv(b)`: both operands converted to double, double division. */
export function fdiv(a: DecimalLike, b: DecimalLike): number {
  return Number(toDecimal(a).toString()) / Number(toDecimal(b).toString());
}

/** A double read back as a decimal (by its shortest round-trip repr, as Ruby prints floats). */
export function fromFloat(value: number): Decimal {
  return new Decimal(value);
}

/** Ruby `Float#round` (half away from zero) of a double, returned as a Decimal integer. */
export function roundFloat(value: number): Decimal {
  return new Decimal(value).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
}
