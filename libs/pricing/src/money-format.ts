import { currencyInfo } from "./currency";
import { type DecimalLike, toDecimal } from "./decimal";

/**
 * Amounts as a document shows them: per locale (digit grouping, decimal mark, where the currency
 * sign goes) and per currency exponent (2 digits for EUR, none for JPY, 3 for KWD). Intl formats
 * the exact decimal string (never a float), so 12345678901234567 cents print to the cent.
 */

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(supportedLocale(locale), options);
    if (formatters.size > 1_000) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

/** The locale as Intl knows it ("fr", "en", "pt-BR"); an unknown or malformed one → "en". */
export function supportedLocale(locale: string | null | undefined): string {
  if (!locale) return "en";
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale])[0] ?? "en";
  } catch {
    return "en";
  }
}

/** Integer minor units → "€1,234.56" (en), "1 234,56 €" (fr), "¥1,235" (en, JPY). */
export function formatMoney(cents: DecimalLike, currency: string, locale: string): string {
  const { code, exponent, subunit } = currencyInfo(currency);
  const major = toDecimal(cents).div(subunit).toFixed(exponent);
  return formatter(locale, {
    style: "currency",
    currency: code,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  }).format(major as unknown as number);
}

/**
 * A price in major units that may be finer than the currency (a unit price of 0.0125 €): at least
 * the currency's digits, at most `maxDigits` (rounded half away from zero past them).
 */
export function formatUnitPrice(amount: DecimalLike, currency: string, locale: string, maxDigits = 6): string {
  const { code, exponent } = currencyInfo(currency);
  const plain = toDecimal(amount).toFixed();
  return formatter(locale, {
    style: "currency",
    currency: code,
    minimumFractionDigits: exponent,
    maximumFractionDigits: Math.max(exponent, maxDigits),
  }).format(plain as unknown as number);
}

/** A quantity (units, a rate) in the locale's digits: "1,234.5" (en), "1 234,5" (fr); at most `maxDigits` fraction digits. */
export function formatQuantity(value: DecimalLike, locale: string, maxDigits = 6): string {
  return formatter(locale, { maximumFractionDigits: maxDigits }).format(
    toDecimal(value).toFixed() as unknown as number,
  );
}
