import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

const d = (values: number[]) => values.map((v) => new Decimal(v));
const base = { rate: "1.3", fixed_amount: "2.0", free_units_per_events: 3, free_units_per_total_aggregation: "250.0" };

function price(
  properties: Record<string, unknown>,
  units: number,
  count: number,
  runningTotal: number[],
  extra: { eventValues?: number[]; premium?: boolean } = {},
) {
  return applyChargeModel(compileCharge("percentage", properties), {
    units: new Decimal(units),
    eventsCount: count,
    runningTotal: d(runningTotal),
    eventValues: extra.eventValues ? d(extra.eventValues) : undefined,
    premium: extra.premium,
    subunit: new Decimal(100),
  });
}

describe("percentage charge model", () => {
  it("takes the smaller of free events and free amount (11.15)", () => {
    const result = price(base, 800, 4, [50, 150, 400]);
    expect(result.amount.toString()).toBe("11.15");
    expect(result.amountDetails).toEqual({
      units: "800.0",
      free_units: "250.0",
      free_events: 2,
      paid_units: "550.0",
      rate: "1.3",
      per_unit_total_amount: "7.15",
      paid_events: 2,
      fixed_fee_unit_amount: "2.0",
      fixed_fee_total_amount: "4.0",
      min_max_adjustment_total_amount: "0.0",
    });
  });

  it.each([
    ["no free_units_per_events", { free_units_per_events: null }, [50, 150, 400], "11.15"],
    ["no free_units_per_total_aggregation", { free_units_per_total_aggregation: null }, [50, 150, 400], "7.2"],
    ["no free units", { free_units_per_events: null, free_units_per_total_aggregation: null }, [], "18.4"],
    ["free amount above the last running total", { free_units_per_total_aggregation: "500.0" }, [50, 150, 400], "7.2"],
    ["a zero rate", { rate: "0", free_units_per_events: null, free_units_per_total_aggregation: null }, [], "8"],
  ])("prices with %s", (_name, overrides, runningTotal, amount) => {
    expect(price({ ...base, ...overrides }, 800, 4, runningTotal).amount.toString()).toBe(amount);
  });

  it("charges nothing at zero units", () => {
    const result = price(base, 0, 0, []);
    expect(result.amount.toString()).toBe("0");
    expect(result.amountDetails["fixed_fee_total_amount"]).toBe("0.0");
  });

  it("charges nothing when free units exceed usage", () => {
    expect(
      price(
        { ...base, free_units_per_events: 5, free_units_per_total_aggregation: null },
        400,
        4,
        [50, 150, 400],
      ).amount.toString(),
    ).toBe("0");
  });

  it("prices small fractional amounts exactly", () => {
    expect(price({ rate: "2.9" }, 4, 1, []).amount.toString()).toBe("0.116");
  });

  describe("per-transaction min / max", () => {
    const minMax = {
      rate: "2.99",
      fixed_amount: "0",
      free_units_per_total_aggregation: "0",
      per_transaction_min_amount: "1.75",
      per_transaction_max_amount: "12",
    };
    const values = [10, 80, 10_000];
    it.each([
      ["without premium the bounds are ignored", {}, false, "301.691"],
      ["clamps each transaction", {}, true, "16.142"],
      ["adds the fixed amount before clamping", { fixed_amount: "2.0" }, true, "18.691"],
      ["skips free events first", { free_units_per_events: 2 }, true, "12"],
      [
        "consumes the free amount first, partially on the straddling event",
        { free_units_per_total_aggregation: "30" },
        true,
        "13.794",
      ],
    ])("%s", (_name, overrides, premium, amount) => {
      const result = price({ ...minMax, ...overrides }, 10_090, 3, [], { eventValues: values, premium });
      expect(result.amount.toString()).toBe(amount);
    });
  });
});
