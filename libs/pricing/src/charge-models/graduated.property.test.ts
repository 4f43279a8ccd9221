import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

/** Contiguous inclusive ranges (0–a, a+1–b, …, n–∞) with random prices. */
const rangesArb = fc
  .array(
    fc.record({
      width: fc.integer({ min: 1, max: 1000 }),
      price: fc.integer({ min: 0, max: 10_000 }),
      flat: fc.integer({ min: 0, max: 5000 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((tiers) => {
    let from = 0;
    return tiers.map((tier, i) => {
      const last = i === tiers.length - 1;
      const to = last ? null : from + tier.width;
      const range = {
        from_value: from,
        to_value: to,
        per_unit_amount: (tier.price / 1000).toString(),
        flat_amount: (tier.flat / 100).toString(),
      };
      from = (to ?? 0) + 1;
      return range;
    });
  });

const unitsArb = fc.integer({ min: 0, max: 10_000_000 }).map((n) => new Decimal(n).div(1000));

describe("graduated properties", () => {
  it("the total equals the sum of its ranges' totals", () => {
    fc.assert(
      fc.property(rangesArb, unitsArb, (graduated_ranges, units) => {
        const result = applyChargeModel(compileCharge("graduated", { graduated_ranges }), {
          units,
          eventsCount: 1,
          subunit: new Decimal(100),
        });
        const details = result.amountDetails["graduated_ranges"] as { total_with_flat_amount: string; units: string }[];
        const sum = details.reduce((s, r) => s.plus(r.total_with_flat_amount), new Decimal(0));
        expect(result.amount.eq(sum)).toBe(true);
        const billedUnits = details.reduce((s, r) => s.plus(r.units), new Decimal(0));
        expect(billedUnits.eq(units)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("is monotonic: more units never cost less", () => {
    fc.assert(
      fc.property(rangesArb, unitsArb, unitsArb, (graduated_ranges, a, b) => {
        const compiled = compileCharge("graduated", { graduated_ranges });
        const price = (units: Decimal) =>
          applyChargeModel(compiled, { units, eventsCount: 1, subunit: new Decimal(100) }).amount;
        const [low, high] = a.lte(b) ? [a, b] : [b, a];
        expect(price(low).lte(price(high))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
