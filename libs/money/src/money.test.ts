import { describe, expect, it } from "vitest";
import { fromCents, isDecimalString, Money, roundCents, toCents, toDecimalString, truncateCents } from "./index";

describe("money", () => {
  it.each([
    ["12.345", "USD", 1235],
    ["12.344", "USD", 1234],
    ["-12.345", "USD", -1235],
    ["0.005", "EUR", 1],
    ["-0.005", "EUR", -1],
    ["1234.5", "JPY", 1235],
    ["1234.4", "JPY", 1234],
    ["1.2345", "KWD", 1235],
    ["1.23449", "KWD", 1234],
    ["0.00004", "USD", 0],
  ])("rounds %s %s half away from zero to %i cents", (amount, currency, cents) => {
    expect(toCents(amount, currency)).toBe(cents);
  });

  it("never returns negative zero", () => {
    expect(Object.is(toCents("-0.001", "USD"), 0)).toBe(true);
  });

  it("converts cents back to exact major units at the currency's exponent", () => {
    expect(fromCents(1235, "USD")).toBe("12.35");
    expect(fromCents(1235, "JPY")).toBe("1235");
    expect(fromCents(1235, "KWD")).toBe("1.235");
    expect(fromCents("-5", "USD")).toBe("-0.05");
  });

  it("rounds and truncates precise cents", () => {
    expect(roundCents("10.5")).toBe(11);
    expect(roundCents("-10.5")).toBe(-11);
    expect(truncateCents("10.99")).toBe(10);
    expect(truncateCents("-10.99")).toBe(-10);
  });

  it("adds decimals exactly where floats drift", () => {
    expect(new Money("0.1").plus("0.2").toFixed()).toBe("0.3");
    expect(toDecimalString("1.50")).toBe("1.5");
    expect(toDecimalString("1e-7")).toBe("0.0000001");
  });

  it("recognises plain decimal strings", () => {
    expect(["1", "-2.5", "0.000"].every(isDecimalString)).toBe(true);
    expect(["1e3", "", ".5", "1.", "NaN", "Infinity", " 1"].some(isDecimalString)).toBe(false);
  });

  it("refuses amounts beyond safe integers", () => {
    expect(() => toCents("1e20", "USD")).toThrow(RangeError);
  });
});
