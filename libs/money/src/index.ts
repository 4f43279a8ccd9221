import Decimal from "decimal.js";
import { currencyExponent } from "@billing/codes";

/**
 * The platform's one Decimal: 40 significant digits, and ROUND_HALF_UP, which
 * decimal.js defines as half away from zero (2.5 → 3, -2.5 → -3).
 */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Money = Decimal;
export type DecimalInput = Decimal.Value;

export { currencyExponent };

/** An amount in major units ("12.345" USD) → whole cents, half away from zero (1235). */
export function toCents(amount: DecimalInput, currency: string): number {
  const exponent = currencyExponent(currency);
  const cents = new Money(amount).times(new Money(10).pow(exponent)).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return safeInteger(cents);
}

/** Whole cents → an exact amount in major units as a decimal string (1235 USD → "12.35"). */
export function fromCents(cents: number | bigint | string, currency: string): string {
  const exponent = currencyExponent(currency);
  return new Money(cents.toString()).div(new Money(10).pow(exponent)).toFixed(exponent);
}

/** Rounds a precise cents amount to whole cents, half away from zero. */
export function roundCents(preciseCents: DecimalInput): number {
  return safeInteger(new Money(preciseCents).toDecimalPlaces(0, Decimal.ROUND_HALF_UP));
}

/** Drops the fraction of a precise cents amount (Lago's unit_amount_cents). */
export function truncateCents(preciseCents: DecimalInput): number {
  return safeInteger(new Money(preciseCents).toDecimalPlaces(0, Decimal.ROUND_DOWN));
}

/** A decimal string with no exponent and no trailing zeros beyond what is needed ("1.50" → "1.5"). */
export function toDecimalString(value: DecimalInput): string {
  return new Money(value).toFixed();
}

/** True when the string is a plain decimal number ("12", "-0.5", "3.14"). */
export function isDecimalString(value: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(value);
}

function safeInteger(value: Decimal): number {
  const n = value.toNumber();
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount out of range: ${value.toFixed()}`);
  return n === 0 ? 0 : n; // never -0
}
