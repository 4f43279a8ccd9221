import { describe, expect, it } from "vitest";
import { oneOffFeeAmount } from "./one-off";

describe("one-off add-on fee", () => {
  it("units × unit amount, rounded to whole cents half away from zero", () => {
    expect(oneOffFeeAmount(1_999, "3")).toEqual({
      amount_cents: 5_997,
      precise_amount_cents: "5997.0",
      precise_unit_amount_cents: "1999.0",
      units: "3.0",
    });
    expect(oneOffFeeAmount(333, "1.5")).toMatchObject({ amount_cents: 500, precise_amount_cents: "499.5" });
    expect(oneOffFeeAmount(1_000, "0.333")).toMatchObject({ amount_cents: 333, precise_amount_cents: "333.0" });
  });

  it("one unit when none is given", () => {
    expect(oneOffFeeAmount(2_500, null)).toMatchObject({ amount_cents: 2_500, units: "1.0" });
  });
});
