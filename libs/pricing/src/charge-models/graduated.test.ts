import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

const inclusive = {
  graduated_ranges: [
    { from_value: 0, to_value: 10, per_unit_amount: "10", flat_amount: "2" },
    { from_value: 11, to_value: 20, per_unit_amount: "5", flat_amount: "3" },
    { from_value: 21, to_value: null, per_unit_amount: "5", flat_amount: "3" },
  ],
};
const adjacent = {
  graduated_ranges: [
    { from_value: 0, to_value: 0.1, per_unit_amount: "10", flat_amount: "0" },
    { from_value: 0.1, to_value: 1, per_unit_amount: "5", flat_amount: "0" },
    { from_value: 1, to_value: null, per_unit_amount: "2", flat_amount: "0" },
  ],
};

function price(properties: Record<string, unknown>, units: string, extra: { excludeEvent?: boolean } = {}) {
  const result = applyChargeModel(compileCharge("graduated", properties), {
    units: new Decimal(units),
    eventsCount: 1,
    subunit: new Decimal(100),
    ...extra,
  });
  const unitAmount = result.unitAmountBase.isZero() ? new Decimal(0) : result.amount.div(result.unitAmountBase);
  return {
    amount: result.amount.toString(),
    unitAmount,
    ranges: result.amountDetails["graduated_ranges"] as Record<string, unknown>[],
  };
}

describe("graduated charge model", () => {
  it.each([
    ["0", "2", 1],
    ["1", "12", 1],
    ["10", "102", 1],
    ["11", "110", 2],
    ["12", "115", 2],
    ["21", "163", 3],
    ["10.5", "107.5", 2],
  ])("prices %s units at %s with %i ranges reached (inclusive layout)", (units, amount, reached) => {
    const result = price(inclusive, units);
    expect(result.amount).toBe(amount);
    expect(result.ranges).toHaveLength(reached);
  });

  it("charges the first tier's flat fee at zero units", () => {
    const result = price(inclusive, "0");
    expect(result.amount).toBe("2");
    expect(result.unitAmount.toString()).toBe("0");
    expect(result.ranges[0]).toEqual({
      from_value: 0,
      to_value: 10,
      flat_unit_amount: "2.0",
      per_unit_amount: "0.0",
      units: "0.0",
      per_unit_total_amount: "0.0",
      total_with_flat_amount: "2.0",
    });
  });

  it("does not charge the flat fee in the pay-in-advance 'before' computation", () => {
    expect(price(inclusive, "0", { excludeEvent: true }).amount).toBe("0");
  });

  it("shows units per range with the +1 of the inclusive layout", () => {
    const result = price(inclusive, "21");
    expect(result.ranges.map((r) => r["units"])).toEqual(["10.0", "10.0", "1.0"]);
    expect(result.ranges.map((r) => r["total_with_flat_amount"])).toEqual(["102.0", "53.0", "8.0"]);
    expect(result.unitAmount.toDecimalPlaces(2).toString()).toBe("7.76");
  });

  it.each([
    ["0.05", "0.5"],
    ["0.5", "3"],
    ["2", "7.5"],
  ])("uses the adjacent layout (no +1) when every range starts where the previous ends: %s -> %s", (units, amount) => {
    expect(price(adjacent, units).amount).toBe(amount);
  });

  it("uses the inclusive formula when only some pairs are adjacent", () => {
    const mixed = {
      graduated_ranges: [
        { from_value: 0, to_value: 0.01, per_unit_amount: "0", flat_amount: "0" },
        { from_value: 0.01, to_value: 10, per_unit_amount: "10", flat_amount: "2" },
        { from_value: 11, to_value: null, per_unit_amount: "5", flat_amount: "3" },
      ],
    };
    expect(price(mixed, "0").amount).toBe("0");
    // 0.01 + (1 − 0.01 + 1) units in tier 2: inclusive +1
    expect(price(mixed, "1").amount).toBe("21.9");
  });

  it("prices a single open-ended range", () => {
    const one = { graduated_ranges: [{ from_value: 0, to_value: null, per_unit_amount: "0.5", flat_amount: "1" }] };
    expect(price(one, "7.5").amount).toBe("4.75");
  });

  it("does not charge the flat amount of ranges that are not reached", () => {
    expect(price(inclusive, "20").amount).toBe("155");
  });
});
