import { describe, expect, it } from "vitest";
import {
  centsNumber,
  currencyExponent,
  fromCents,
  roundCents,
  shiftedDecimalString,
  roundedMinorUnits,
  toCents,
} from "./currency";
import { minorUnits, splitPlain } from "./plain-decimal";
import { Decimal, decimalString } from "./decimal";

describe("currencies", () => {
  it.each([
    ["EUR", 2],
    ["USD", 2],
    ["JPY", 0],
    ["KWD", 3],
    ["BHD", 3],
    ["CLF", 4],
    ["eur", 2],
  ])("knows the ISO 4217 exponent of %s (%i)", (code, exponent) => {
    expect(currencyExponent(code)).toBe(exponent);
  });

  it("rejects something that is not a currency code", () => {
    expect(() => currencyExponent("EURO")).toThrow(RangeError);
  });

  it.each([
    ["1234.565", "EUR", "123457"],
    ["-1234.565", "EUR", "-123457"],
    ["1234.56", "JPY", "1235"],
    ["1234.5", "JPY", "1235"],
    ["1.2345", "KWD", "1235"],
    ["0.005", "USD", "1"],
    ["0.0049", "USD", "0"],
    // moved from the former libs/money: each side of the half, negative halves, every exponent
    ["12.344", "USD", "1234"],
    ["-0.005", "EUR", "-1"],
    ["1234.4", "JPY", "1234"],
    ["1.23449", "KWD", "1234"],
    ["0.00004", "USD", "0"],
  ])("rounds %s %s half away from zero to %s minor units", (amount, currency, cents) => {
    expect(toCents(amount, currency).toString()).toBe(cents);
  });

  it("never gives negative zero cents (moved from the former libs/money)", () => {
    expect(Object.is(centsNumber(toCents("-0.001", "USD")), 0)).toBe(true);
  });

  it("converts cents back to exact major units at the currency's exponent, and rounds precise cents half away from zero", () => {
    expect(fromCents(1235, "USD").toString()).toBe("12.35");
    expect(fromCents(1235, "JPY").toString()).toBe("1235");
    expect(fromCents(1235, "KWD").toString()).toBe("1.235");
    expect(roundCents("10.5").toNumber()).toBe(11);
    expect(roundCents("-10.5").toNumber()).toBe(-11);
  });

  it("converts negative cents, truncates unit amounts toward zero and adds decimals exactly (moved from the former libs/money)", () => {
    expect(fromCents("-5", "USD").toString()).toBe("-0.05");
    expect(minorUnits(splitPlain("10.99"), 0, "truncate")).toBe(10);
    expect(minorUnits(splitPlain("-10.99"), 0, "truncate")).toBe(-10);
    expect(new Decimal("0.1").plus("0.2").toFixed()).toBe("0.3");
  });

  it("has string-based fast paths equal to decimal arithmetic", () => {
    for (const value of ["0", "0.5", "-0.005", "1234.5678", "99.995", "-0.0001", "1e-7", "123456789.123456789"]) {
      const d = new Decimal(value);
      for (const exponent of [0, 2, 3]) {
        expect(roundedMinorUnits(d, exponent)).toBe(
          d
            .toDecimalPlaces(exponent)
            .times(10 ** exponent)
            .toNumber() || 0,
        );
        expect(minorUnits(splitPlain(d.toFixed()), exponent, "truncate")).toBe(
          d
            .times(10 ** exponent)
            .trunc()
            .toNumber() || 0,
        );
        expect(shiftedDecimalString(d, exponent)).toBe(decimalString(d.times(10 ** exponent)));
      }
    }
  });
});

describe("decimalString", () => {
  it.each([
    ["10", "10.0"],
    ["0", "0.0"],
    ["-3", "-3.0"],
    ["0.5", "0.5"],
    ["1234.560", "1234.56"],
    ["1e-20", "0.00000000000000000001"],
  ])("formats %s like Lago's BigDecimal (%s)", (value, text) => {
    expect(decimalString(value)).toBe(text);
  });
});
