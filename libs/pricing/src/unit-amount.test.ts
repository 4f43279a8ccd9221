import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Decimal, decimalString } from "./decimal";
import { unitAmountFields } from "./unit-amount";

const slow = (a: Decimal, b: Decimal, exponent: number) => {
  const q = a.div(b);
  return {
    precise_unit_amount: decimalString(q.toDecimalPlaces(15)),
    unit_amount_cents:
      q
        .times(10 ** exponent)
        .trunc()
        .toNumber() || 0,
  };
};

describe("unit amount", () => {
  it("truncates unit_amount_cents and keeps 15 decimals of precision", () => {
    expect(unitAmountFields(new Decimal("0.015"), new Decimal(1), 2)).toEqual({
      precise_unit_amount: "0.015",
      unit_amount_cents: 1,
    });
    expect(unitAmountFields(new Decimal("10.12345"), new Decimal(1), 2)).toEqual({
      precise_unit_amount: "10.12345",
      unit_amount_cents: 1012,
    });
    expect(unitAmountFields(new Decimal("115"), new Decimal(12), 2)).toEqual({
      precise_unit_amount: "9.583333333333333",
      unit_amount_cents: 958,
    });
  });

  it("is 0 when there are no units", () => {
    expect(unitAmountFields(new Decimal("2"), new Decimal(0), 2)).toEqual({
      precise_unit_amount: "0.0",
      unit_amount_cents: 0,
    });
  });

  it("gives the same result on the integer fast path as with decimal division", () => {
    const decimal = fc
      .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 8 }))
      .map(([n, scale]) => new Decimal(n).div(10 ** scale));
    fc.assert(
      fc.property(decimal, decimal, fc.constantFrom(0, 2, 3), (a, b, exponent) => {
        fc.pre(!b.isZero() && !a.isZero());
        expect(unitAmountFields(a, b, exponent)).toEqual(slow(a, b, exponent));
      }),
      { numRuns: 2000 },
    );
  });
});
