import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

const ranges = {
  graduated_percentage_ranges: [
    { from_value: 0, to_value: 10, flat_amount: "200", rate: "1" },
    { from_value: 11, to_value: 20, flat_amount: "300", rate: "2" },
    { from_value: 21, to_value: null, flat_amount: "400", rate: "3" },
  ],
};

function price(units: string, excludeEvent = false) {
  const result = applyChargeModel(compileCharge("graduated_percentage", ranges), {
    units: new Decimal(units),
    eventsCount: 1,
    subunit: new Decimal(100),
    excludeEvent,
  });
  return {
    amount: result.amount.toString(),
    ranges: result.amountDetails["graduated_percentage_ranges"] as Record<string, unknown>[],
  };
}

describe("graduated_percentage charge model", () => {
  it.each([
    ["0", "200"],
    ["1", "200.01"],
    ["10", "200.1"],
    ["11", "500.12"],
    ["12", "500.14"],
    ["21", "900.33"],
  ])("prices %s units at %s (rate '1' = 1 %)", (units, amount) => {
    expect(price(units).amount).toBe(amount);
  });

  it("drops the first flat amount in the pay-in-advance 'before' computation at zero units", () => {
    const result = price("0", true);
    expect(result.amount).toBe("0");
    expect(result.ranges[0]).toMatchObject({ flat_unit_amount: "0.0", total_with_flat_amount: "0.0" });
  });

  it("details every reached range", () => {
    expect(
      price("21").ranges.map((r) => [r["units"], r["per_unit_total_amount"], r["total_with_flat_amount"]]),
    ).toEqual([
      ["10.0", "0.1", "200.1"],
      ["10.0", "0.2", "300.2"],
      ["1.0", "0.03", "400.03"],
    ]);
  });
});
