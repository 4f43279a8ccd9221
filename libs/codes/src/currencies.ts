/** ISO 4217 currency codes known to the runtime (Intl), and their minor-unit exponents. */
// Codes ICU no longer lists but Lago clients still send (funds code CLF, pre-redenomination MRO and STD).
const LEGACY = ["CLF", "MRO", "STD"];
export const CURRENCY_CODES: readonly string[] = [...Intl.supportedValuesOf("currency"), ...LEGACY];
const currencySet = new Set(CURRENCY_CODES);

export function isCurrencyCode(value: string): boolean {
  return currencySet.has(value);
}

/** ISO 4217 minor units where they differ from 2 (ICU disagrees with ISO on a few, so they are listed). */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

export function currencyExponent(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}
