import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

const ranges = {
  volume_ranges: [
    { from_value: 0, to_value: 100, per_unit_amount: "2", flat_amount: "1" },
    { from_value: 101, to_value: 200, per_unit_amount: "1", flat_amount: "0" },
    { from_value: 201, to_value: null, per_unit_amount: "0.5", flat_amount: "50" },
  ],
};

function price(units: string, extra: { fullUnitsNumber?: Decimal; prorated?: boolean } = {}) {
  const result = applyChargeModel(compileCharge("volume", ranges), {
    units: new Decimal(units),
    eventsCount: 1,
    subunit: new Decimal(100),
    ...extra,
  });
  return { amount: result.amount.toString(), details: result.amountDetails };
}

describe("volume charge model", () => {
  it.each([
    ["0", "1"],
    ["1", "3"],
    ["100", "201"],
    ["100.5", "100.5"],
    ["101", "101"],
    ["300", "200"],
  ])("prices all %s units in the one range they fall in -> %s", (units, amount) => {
    expect(price(units).amount).toBe(amount);
  });

  it("charges the first range's flat amount at zero units", () => {
    expect(price("0").details).toEqual({
      flat_unit_amount: "1.0",
      per_unit_amount: "0.0",
      per_unit_total_amount: "0.0",
    });
  });

  it("picks the tier with the full count on a prorated charge, prices prorated units, flat not prorated", () => {
    const result = price("50.5", { fullUnitsNumber: new Decimal(150), prorated: true });
    expect(result.amount).toBe("50.5");
  });
});
