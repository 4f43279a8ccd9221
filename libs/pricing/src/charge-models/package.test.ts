import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

function price(
  units: string,
  properties: Record<string, unknown> = { amount: "100", package_size: 10, free_units: 0 },
) {
  const result = applyChargeModel(compileCharge("package", properties), {
    units: new Decimal(units),
    eventsCount: 1,
    subunit: new Decimal(100),
  });
  return { amount: result.amount.toString(), base: result.unitAmountBase.toString(), details: result.amountDetails };
}

describe("package charge model", () => {
  it.each([
    ["0", "0"],
    ["1", "100"],
    ["10", "100"],
    ["11", "200"],
    ["10.5", "200"],
    ["100", "1000"],
  ])("charges a started package in full: %s units -> %s", (units, amount) => {
    expect(price(units).amount).toBe(amount);
  });

  it("removes free units before counting packages", () => {
    const result = price("25", { amount: "5", package_size: 10, free_units: 10 });
    expect(result.amount).toBe("10");
    expect(result.base).toBe("15");
    expect(result.details).toEqual({
      free_units: "10.0",
      paid_units: "15.0",
      per_package_size: 10,
      per_package_unit_amount: "5.0",
    });
  });

  it("charges nothing when free units are above usage", () => {
    const result = price("3", { amount: "5", package_size: 10, free_units: 10 });
    expect(result.amount).toBe("0");
    expect(result.details["paid_units"]).toBe("0.0");
  });

  it("shows zeroed details at zero units", () => {
    expect(price("0").details).toEqual({
      free_units: "0.0",
      paid_units: "0.0",
      per_package_size: 0,
      per_package_unit_amount: "0.0",
    });
  });
});
