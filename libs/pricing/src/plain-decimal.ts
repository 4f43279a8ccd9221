/**
 * Exact decimal-point shifts and roundings done on a decimal's plain string ("-1234.5678"),
 * for the fee hot path: the same results as decimal.js arithmetic, several times cheaper.
 */
export interface PlainDecimal {
  negative: boolean;
  /** Integer digits, no sign ("0" for 0.5). */
  int: string;
  /** Fraction digits, possibly empty. */
  frac: string;
}

export function splitPlain(plain: string): PlainDecimal {
  const negative = plain.charCodeAt(0) === 45;
  const body = negative ? plain.slice(1) : plain;
  const dot = body.indexOf(".");
  return dot === -1
    ? { negative, int: body, frac: "" }
    : { negative, int: body.slice(0, dot), frac: body.slice(dot + 1) };
}

/** Adds one to a string of decimal digits. */
export function incrementDigits(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits.charCodeAt(i) === 57) i--;
  const tail = "0".repeat(digits.length - 1 - i);
  return i < 0 ? `1${tail}` : digits.slice(0, i) + String(digits.charCodeAt(i) - 47) + tail;
}

/** value × 10^exponent rounded half away from zero (round) or toward zero (truncate), as a JS integer. */
export function minorUnits(p: PlainDecimal, exponent: number, mode: "round" | "truncate"): number {
  const frac = p.frac.padEnd(exponent + 1, "0");
  let digits = p.int + frac.slice(0, exponent);
  if (mode === "round" && frac.charCodeAt(exponent) >= 53) digits = incrementDigits(digits);
  const magnitude = Number(digits);
  return (p.negative ? -magnitude : magnitude) || 0;
}

/** value × 10^exponent in Lago's decimal format ("1234.5", "100.0"), unrounded. */
export function shiftedString(p: PlainDecimal, exponent: number): string {
  const padded = p.frac.padEnd(exponent, "0");
  const integer = (p.int + padded.slice(0, exponent)).replace(/^0+(?=\d)/, "");
  const fraction = padded.slice(exponent).replace(/0+$/, "");
  const text = `${integer}.${fraction || "0"}`;
  return p.negative && text !== "0.0" ? `-${text}` : text;
}
