import { Decimal, type DecimalLike, toDecimal } from "./decimal";
import { minorUnits, shiftedString, splitPlain } from "./plain-decimal";
import { currencyExponent as isoExponent } from "@billing/codes";

// ISO 4217 exponents come from @billing/codes, the platform's one table of them.

export interface CurrencyInfo {
  code: string;
  exponent: number;
  /** Minor units per major unit (100 for EUR, 1 for JPY, 1000 for KWD). */
  subunit: Decimal;
}

const cache = new Map<string, CurrencyInfo>();

export function currencyInfo(code: string): CurrencyInfo {
  const upper = code.toUpperCase();
  let info = cache.get(upper);
  if (!info) {
    if (!/^[A-Z]{3}$/.test(upper)) throw new RangeError(`unknown currency: ${code}`);
    const exponent = isoExponent(upper);
    info = { code: upper, exponent, subunit: new Decimal(10).pow(exponent) };
    cache.set(upper, info);
  }
  return info;
}

export function currencyExponent(code: string): number {
  return currencyInfo(code).exponent;
}

/** Major units -> integer minor units, half away from zero at the currency exponent. */
export function toCents(amount: DecimalLike, currency: string): Decimal {
  const { exponent, subunit } = currencyInfo(currency);
  return toDecimal(amount).toDecimalPlaces(exponent, Decimal.ROUND_HALF_UP).times(subunit);
}

/** Major units -> minor units, unrounded (the `precise_*_cents` fields). */
export function toPreciseCents(amount: DecimalLike, currency: string): Decimal {
  return toDecimal(amount).times(currencyInfo(currency).subunit);
}

/** Minor units -> major units. */
export function fromCents(cents: DecimalLike, currency: string): Decimal {
  return toDecimal(cents).div(currencyInfo(currency).subunit);
}

/** Half away from zero to a whole number of minor units. */
export function roundCents(cents: DecimalLike): Decimal {
  return toDecimal(cents).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
}

/** A whole, JSON-safe number of cents. */
export function centsNumber(cents: DecimalLike): number {
  const n = roundCents(cents).toNumber();
  return n === 0 ? 0 : n; // never -0 (a refund of -0.001 rounds to no cents, not "minus no cents")
}

/** round(amount, exponent) × 10^exponent as a JS integer (half away from zero). */
export function roundedMinorUnits(amount: Decimal, exponent: number): number {
  return minorUnits(splitPlain(amount.toFixed()), exponent, "round");
}

/** amount × 10^exponent, unrounded, in decimalString format ("1234.5", "100.0"). */
export function shiftedDecimalString(amount: Decimal, exponent: number): string {
  return shiftedString(splitPlain(amount.toFixed()), exponent);
}
