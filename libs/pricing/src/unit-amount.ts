import { Decimal, decimalString } from "./decimal";
import { type PlainDecimal, incrementDigits, splitPlain } from "./plain-decimal";

/** Lago keeps precise amounts in decimal(x,15) columns: 15 decimals is what its API shows. */
export const PRECISE_SCALE = 15;

export interface UnitAmountFields {
  /** amount / units rounded to 15 decimals (the decimal(30,15) column), decimalString format. */
  precise_unit_amount: string;
  /** amount / units × subunit, truncated toward zero. */
  unit_amount_cents: number;
}

const ZERO_FIELDS: UnitAmountFields = Object.freeze({ precise_unit_amount: "0.0", unit_amount_cents: 0 });
const LIMIT = 2 ** 49;

/** value = int × 10^-scale with int a safe JS integer, or null when too large. */
function scaled(p: PlainDecimal): { int: number; scale: number } | null {
  const int = Number(p.int + p.frac);
  return int < LIMIT ? { int, scale: p.frac.length } : null;
}

/** Rounds the digit string D × 10^-16 half away from zero to 15 decimals and formats it. */
function formatDigits(negative: boolean, digits: string): string {
  const padded = digits.padStart(PRECISE_SCALE + 2, "0");
  let kept = padded.slice(0, -1);
  if (padded.charCodeAt(padded.length - 1) >= 53) kept = incrementDigits(kept);
  const integer = kept.slice(0, -PRECISE_SCALE).replace(/^0+(?=\d)/, "");
  const fraction = kept.slice(-PRECISE_SCALE).replace(/0+$/, "");
  const text = `${integer}.${fraction || "0"}`;
  return negative && text !== "0.0" ? `-${text}` : text;
}

/**
 * unit_amount fields from amount / base, exact: long division on JS integers when both fit
 * (the hot path), decimal.js division otherwise.
 */
export function unitAmountFields(
  amount: Decimal,
  base: Decimal,
  exponent: number,
  plainAmount?: PlainDecimal,
): UnitAmountFields {
  if (base.isZero() || amount.isZero()) return ZERO_FIELDS;
  const pa = plainAmount ?? splitPlain(amount.toFixed());
  const pb = splitPlain(base.toFixed());
  const a = scaled(pa);
  const b = scaled(pb);
  const fractionDigits = a && b ? PRECISE_SCALE + 1 - a.scale + b.scale : -1;
  if (!a || !b || fractionDigits < 0 || fractionDigits > 40) return slowFields(amount, base, exponent);
  let quotient = Math.floor(a.int / b.int);
  let remainder = a.int - quotient * b.int;
  if (remainder < 0) ((quotient -= 1), (remainder += b.int));
  else if (remainder >= b.int) ((quotient += 1), (remainder -= b.int));
  let digits = quotient === 0 ? "" : String(quotient);
  for (let i = 0; i < fractionDigits; i++) {
    remainder *= 10;
    const digit = Math.floor(remainder / b.int);
    remainder -= digit * b.int;
    digits += digit;
  }
  const negative = pa.negative !== pb.negative;
  const whole = digits.padStart(PRECISE_SCALE + 2, "0");
  const cents = Number(whole.slice(0, whole.length - (PRECISE_SCALE + 1 - exponent))) || 0;
  return {
    precise_unit_amount: formatDigits(negative, digits || "0"),
    unit_amount_cents: (negative ? -cents : cents) || 0,
  };
}

function slowFields(amount: Decimal, base: Decimal, exponent: number): UnitAmountFields {
  const unit = amount.div(base);
  return {
    precise_unit_amount: decimalString(unit.toDecimalPlaces(PRECISE_SCALE)),
    unit_amount_cents: Number(unit.toFixed(exponent, Decimal.ROUND_DOWN).replace(".", "")) || 0,
  };
}
