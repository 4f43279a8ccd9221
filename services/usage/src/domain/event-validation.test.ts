import { describe, expect, it } from "vitest";
import { timestampMs, validateEvent } from "./event-validation";

describe("event validation", () => {
  it("reads Unix seconds as integers, decimals and their strings", () => {
    expect(timestampMs(1651240791)).toBe(1651240791000);
    expect(timestampMs("1651240791")).toBe(1651240791000);
    expect(new Date(timestampMs("1651240791.123")!).toISOString()).toBe("2022-04-29T13:59:51.123Z");
    expect(new Date(timestampMs(1651240791.5)!).toISOString()).toBe("2022-04-29T13:59:51.500Z");
    for (const bad of ["yesterday", "2022-04-29", "1e9", "", {}, true, 1e20]) expect(timestampMs(bad)).toBeNull();
  });

  it("gives Lago's codes, and a valid event's normalized fields", () => {
    expect(validateEvent({ code: "c", timestamp: "x", properties: [1] })).toEqual({
      errors: { transaction_id: ["value_is_mandatory"], external_subscription_id: ["value_is_mandatory"], timestamp: ["invalid_format"], properties: ["value_is_invalid"] },
    });
    expect(validateEvent({ transaction_id: 42, external_subscription_id: "s", code: "c", properties: { "a.b": 1 }, precise_total_amount_cents: 12.5 })).toEqual({
      event: { transaction_id: "42", external_subscription_id: "s", code: "c", properties: { "a.b": 1 }, precise_total_amount_cents: "12.5" },
    });
    expect(validateEvent({ transaction_id: "t", external_subscription_id: "s", code: "c", precise_total_amount_cents: "abc" })).toEqual({
      errors: { precise_total_amount_cents: ["value_is_invalid"] },
    });
  });
});
