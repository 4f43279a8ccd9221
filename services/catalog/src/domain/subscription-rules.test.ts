import { describe, expect, it } from "vitest";
import { checkSubscriptionCreate, checkTermination, parseInstant } from "./subscription-rules";
import { slotOf } from "./subscription";

describe("subscription rules", () => {
  it("reports every missing or invalid field with Lago's codes", () => {
    const { violations } = checkSubscriptionCreate({
      external_customer_id: " ",
      billing_time: "weekly",
      subscription_at: "tomorrow",
    });
    expect(violations).toEqual({
      external_customer_id: ["value_is_mandatory"],
      plan_code: ["value_is_mandatory"],
      external_id: ["value_is_mandatory"],
      billing_time: ["value_is_invalid"],
      subscription_at: ["invalid_date"],
    });
  });

  it("parses ISO 8601 instants and refuses the rest", () => {
    expect(parseInstant("2026-03-01T10:00:00Z")?.toISOString()).toBe("2026-03-01T10:00:00.000Z");
    expect(parseInstant("2026-03-01T10:00:00+02:00")?.toISOString()).toBe("2026-03-01T08:00:00.000Z");
    expect(parseInstant("2026-03-01")?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(parseInstant("2026-02-30T00:00:00Z")).toBeNull();
    expect(parseInstant("1700000000")).toBeNull();
  });

  it("accepts a null ending_at and refuses unknown termination options", () => {
    expect(
      checkSubscriptionCreate({ external_customer_id: "c", plan_code: "p", external_id: "s", ending_at: null })
        .violations,
    ).toBeNull();
    expect(checkTermination({ on_termination_invoice: "later" })).toEqual({
      on_termination_invoice: ["value_is_invalid"],
    });
    expect(checkTermination({ on_termination_credit_note: "refund", on_termination_invoice: "skip" })).toBeNull();
  });

  it("gives one slot to the active and one to the pending subscription of an external id", () => {
    expect(slotOf({ id: "1", status: "active", external_id: "s" })).toBe("active:s");
    expect(slotOf({ id: "1", status: "pending", external_id: "s" })).toBe("pending:s");
    expect(slotOf({ id: "1", status: "terminated", external_id: "s" })).toBe("closed:1");
  });
});
