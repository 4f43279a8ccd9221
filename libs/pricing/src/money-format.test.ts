import { describe, expect, it } from "vitest";
import { formatMoney, formatQuantity, formatUnitPrice, supportedLocale } from "./money-format";

// Intl separates French thousands with a narrow no-break space (U+202F) and the sign with a no-break space (U+00A0)
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");

describe("formatMoney", () => {
  it("formats cents per locale and currency exponent", () => {
    expect(formatMoney(123456, "EUR", "en")).toBe("€1,234.56");
    expect(plain(formatMoney(123456, "EUR", "fr"))).toBe("1 234,56 €");
    expect(formatMoney(1235, "JPY", "en")).toBe("¥1,235");
    expect(plain(formatMoney(1234567, "KWD", "en"))).toBe("KWD 1,234.567");
    expect(formatMoney(-50, "USD", "en")).toBe("-$0.50");
    expect(formatMoney(0, "EUR", "en")).toBe("€0.00");
  });
  it("keeps every cent of amounts beyond a double's precision", () => {
    expect(formatMoney("12345678901234567", "USD", "en")).toBe("$123,456,789,012,345.67");
  });
  it("falls back to en for an unknown or malformed locale", () => {
    expect(supportedLocale("xx-!!")).toBe("en");
    expect(supportedLocale(null)).toBe("en");
    expect(formatMoney(100, "EUR", "not a locale")).toBe("€1.00");
  });
});

describe("formatUnitPrice and formatQuantity", () => {
  it("shows prices finer than the currency up to six digits", () => {
    expect(formatUnitPrice("0.0125", "EUR", "en")).toBe("€0.0125");
    expect(formatUnitPrice("2", "EUR", "en")).toBe("€2.00");
    expect(plain(formatUnitPrice("0.0000005", "EUR", "fr"))).toBe("0,000001 €");
  });
  it("formats quantities per locale", () => {
    expect(formatQuantity("1234.5", "en")).toBe("1,234.5");
    expect(plain(formatQuantity("1234.5", "fr"))).toBe("1 234,5");
    expect(formatQuantity("3", "en")).toBe("3");
  });
});
