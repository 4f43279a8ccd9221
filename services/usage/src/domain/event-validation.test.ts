import { describe, expect, it } from "vitest";
import { MAX_PROPERTIES_DEPTH } from "@billing/contracts";
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
      errors: {
        transaction_id: ["value_is_mandatory"],
        external_subscription_id: ["value_is_mandatory"],
        timestamp: ["invalid_format"],
        properties: ["value_is_invalid"],
      },
    });
    expect(
      validateEvent({
        transaction_id: 42,
        external_subscription_id: "s",
        code: "c",
        properties: { "a.b": 1 },
        precise_total_amount_cents: 12.5,
      }),
    ).toEqual({
      event: {
        transaction_id: "42",
        external_subscription_id: "s",
        code: "c",
        properties: { "a.b": 1 },
        precise_total_amount_cents: "12.5",
      },
    });
    expect(
      validateEvent({
        transaction_id: "t",
        external_subscription_id: "s",
        code: "c",
        precise_total_amount_cents: "abc",
      }),
    ).toEqual({
      errors: { precise_total_amount_cents: ["value_is_invalid"] },
    });
  });

  it("refuses properties nested deeper than MAX_PROPERTIES_DEPTH, however deep, without overflowing the stack", () => {
    const nested = (levels: number): Record<string, unknown> =>
      JSON.parse(`${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`);
    const event = (properties: unknown) => ({
      transaction_id: "t",
      external_subscription_id: "s",
      code: "c",
      properties,
    });
    expect(MAX_PROPERTIES_DEPTH).toBe(32);
    expect(validateEvent(event(nested(MAX_PROPERTIES_DEPTH)))).toEqual({
      event: { ...event(nested(MAX_PROPERTIES_DEPTH)) },
    });
    for (const levels of [MAX_PROPERTIES_DEPTH + 1, 4_500, 100_000]) {
      expect(validateEvent(event(nested(levels)))).toEqual({ errors: { properties: ["value_is_too_deep"] } });
    }
    // arrays count as levels too
    expect(
      validateEvent(
        event({ list: JSON.parse(`${"[".repeat(MAX_PROPERTIES_DEPTH)}${"]".repeat(MAX_PROPERTIES_DEPTH)}`) }),
      ),
    ).toEqual({
      errors: { properties: ["value_is_too_deep"] },
    });
  });
});
