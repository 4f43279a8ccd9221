import { describe, expect, it } from "vitest";
import { toCouponInputMessage } from "./to-message";

describe("coupon input message", () => {
  it("leaves limitations alone when applies_to is absent", () => {
    expect(toCouponInputMessage({ name: "C" })).toEqual({ name: "C", null_fields: [], applies_to: null });
  });

  it("clears both limitations when applies_to is null, and only the sent list otherwise", () => {
    expect(toCouponInputMessage({ applies_to: null }).applies_to).toEqual({
      plan_codes_set: true,
      plan_codes: [],
      billable_metric_codes_set: true,
      billable_metric_codes: [],
    });
    expect(toCouponInputMessage({ description: null, applies_to: { plan_codes: ["p"] } })).toEqual({
      null_fields: ["description"],
      applies_to: {
        plan_codes_set: true,
        plan_codes: ["p"],
        billable_metric_codes_set: false,
        billable_metric_codes: [],
      },
    });
  });
});
