import { describe, expect, it } from "vitest";
import { Decimal } from "../decimal";
import { applyChargeModel, compileCharge } from "./factory";

const ranges = {
  graduated_ranges: [
    { from_value: 0, to_value: 5, per_unit_amount: "1", flat_amount: "10" },
    { from_value: 6, to_value: null, per_unit_amount: "2", flat_amount: "20" },
  ],
};
const d = (values: string[]) => values.map((v) => new Decimal(v));

function price(full: string[], prorated: string[]) {
  const units = prorated.reduce((s, v) => s.plus(v), new Decimal(0));
  return applyChargeModel(compileCharge("graduated", ranges, { prorated: true }), {
    units,
    eventsCount: full.length,
    eventValues: d(full),
    proratedEventValues: d(prorated),
    subunit: new Decimal(100),
  }).amount.toString();
}

describe("prorated graduated charge model", () => {
  it("charges the first flat fee only at zero units", () => {
    expect(price([], [])).toBe("10");
  });

  it("prices each event's prorated share at the tier its full units fall in", () => {
    // 4 units for half the period: 4 × 0.5 × 1 + flat 10
    expect(price(["4"], ["2"])).toBe("12");
  });

  it("splits an event crossing a tier edge and adds every reached flat fee in full", () => {
    // 8 units at 0.5: 5 × 0.5 × 1 + 3 × 0.5 × 2 + 10 + 20
    expect(price(["8"], ["4"])).toBe("35.5");
  });

  it("decides tiers on the running non-prorated total across events", () => {
    // first 5 units full period (5 × 1), then 2 units for a quarter (2 × 0.25 × 2)
    expect(price(["5", "2"], ["5", "0.5"])).toBe("36");
  });
});
