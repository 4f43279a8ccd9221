import DecimalJs from "decimal.js";

/**
 * The one Decimal used by the pricing library: 40 significant digits (more than Lago's
 * decimal(40,15) columns need) and ROUND_HALF_UP, which decimal.js defines as
 * "half away from zero" — the rounding mode Lago uses everywhere.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = InstanceType<typeof Decimal>;

/** A decimal value at the API boundary: a decimal string, a JS number (read by its shortest repr) or a Decimal. */
export type DecimalLike = string | number | DecimalJs.Value | Decimal;

export const ZERO = new Decimal(0);
export const ONE = new Decimal(1);
export const HUNDRED = new Decimal(100);

export function toDecimal(value: DecimalLike | null | undefined, fallback: Decimal = ZERO): Decimal {
  if (value === null || value === undefined || value === "") return fallback;
  if (value instanceof Decimal) return value;
  return new Decimal(value as DecimalJs.Value);
}

/** Reads a decimal, or null when the value is absent or not numeric (no exception). */
export function parseDecimal(value: unknown): Decimal | null {
  if (typeof value === "number") return Number.isFinite(value) ? new Decimal(value) : null;
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (!NUMERIC.test(trimmed)) return null;
    return new Decimal(trimmed);
  }
  if (value instanceof Decimal) return value;
  return null;
}
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function isNumeric(value: unknown): boolean {
  return parseDecimal(value) !== null;
}

export function maxDecimal(a: Decimal, b: Decimal): Decimal {
  return a.gte(b) ? a : b;
}

export function minDecimal(a: Decimal, b: Decimal): Decimal {
  return a.lte(b) ? a : b;
}

/**
 * Serializes a decimal the way Lago's API shows BigDecimals (Rails "F" format):
 * always a plain decimal point, integers with a trailing ".0" ("10.0", "0.5", "-3.0").
 */
export function decimalString(value: DecimalLike): string {
  const d = typeof value === "object" ? (value as Decimal) : toDecimal(value);
  if (d.isZero()) return "0.0";
  const plain = d.toFixed();
  return plain.includes(".") ? plain : `${plain}.0`;
}

/** Rounds half away from zero to `places` decimals only when the value has more (skips the work otherwise). */
export function atMostDecimals(value: Decimal, places: number): Decimal {
  return value.decimalPlaces() > places ? value.toDecimalPlaces(places) : value;
}
