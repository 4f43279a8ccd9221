import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

function price(
  model: "standard" | "dynamic",
  properties: Record<string, unknown>,
  units: string,
  extra: Record<string, unknown> = {},
) {
  const result = applyChargeModel(compileCharge(model, properties), {
    units: new Decimal(units),
    eventsCount: 2,
    subunit: new Decimal(100),
    ...extra,
  });
  return { amount: result.amount.toString(), base: result.unitAmountBase.toString() };
}

describe("standard charge model", () => {
  it.each([
    ["0", "0"],
    ["1", "0.015"],
    ["10.5", "0.1575"],
    ["1000000", "15000"],
  ])("prices %s units × 0.015 = %s", (units, amount) => {
    expect(price("standard", { amount: "0.015" }, units).amount).toBe(amount);
  });

  it("uses the non-prorated count as the unit amount base", () => {
    expect(price("standard", { amount: "3" }, "1.5", { fullUnitsNumber: new Decimal(3) }).base).toBe("3");
  });

  it("prices nothing when the amount is carried by filters (empty properties)", () => {
    expect(price("standard", {}, "12").amount).toBe("0");
  });
});

describe("dynamic charge model", () => {
  it("bills the events' own precise_total_amount_cents in major units", () => {
    expect(price("dynamic", {}, "3", { preciseTotalAmountCents: new Decimal("123456") }).amount).toBe("1234.56");
  });

  it("bills nothing without units", () => {
    expect(price("dynamic", {}, "0", { preciseTotalAmountCents: new Decimal("500") }).amount).toBe("0");
  });
});
