import { describe, expect, it } from "vitest";
import { nextDueAfter, rulesAfter, stepOf } from "./recurring-rules";

const at = (iso: string) => new Date(iso);

describe("recurring rule times", () => {
  it("steps by weeks, and by months keeping the day (clamped to the month's end)", () => {
    expect(stepOf(at("2024-01-31T10:00:00Z"), "monthly", 1)).toEqual(at("2024-02-29T10:00:00Z"));
    expect(stepOf(at("2024-01-31T10:00:00Z"), "monthly", 2)).toEqual(at("2024-03-31T10:00:00Z"));
    expect(stepOf(at("2024-01-01T00:00:00Z"), "quarterly", 1)).toEqual(at("2024-04-01T00:00:00Z"));
    expect(stepOf(at("2024-02-29T00:00:00Z"), "yearly", 1)).toEqual(at("2025-02-28T00:00:00Z"));
    expect(stepOf(at("2024-01-01T00:00:00Z"), "weekly", 2)).toEqual(at("2024-01-15T00:00:00Z"));
  });

  it("fires first on the wallet's next anniversary, never at its creation; at a future start itself", () => {
    const created = at("2024-01-01T00:00:00Z");
    const rule = { interval: "monthly" as const, started_at: null, expiration_at: null };
    expect(nextDueAfter(rule, created, created)).toEqual(at("2024-02-01T00:00:00Z"));
    expect(nextDueAfter(rule, created, at("2024-02-01T00:00:00Z"))).toEqual(at("2024-03-01T00:00:00Z"));
    expect(nextDueAfter({ ...rule, started_at: at("2024-01-15T00:00:00Z") }, created, created)).toEqual(
      at("2024-01-15T00:00:00Z"),
    );
    expect(
      nextDueAfter({ ...rule, expiration_at: at("2024-02-15T00:00:00Z") }, created, at("2024-02-01T00:00:00Z")),
    ).toBeNull();
  });

  it("keeps one rule, updates a known one by its id, and reports every problem", () => {
    const now = at("2024-01-01T00:00:00Z");
    const { rules } = rulesAfter([], [{ interval: "monthly", granted_credits: "10" }], now, now);
    expect(rules).toMatchObject([
      {
        trigger: "interval",
        method: "fixed",
        granted_credits: "10",
        paid_credits: "0",
        next_due_at: at("2024-02-01T00:00:00Z"),
      },
    ]);
    const updated = rulesAfter(rules, [{ svc_id: rules[0]!.id, paid_credits: "5" }], now, now).rules;
    expect(updated).toMatchObject([{ id: rules[0]!.id, granted_credits: "10", paid_credits: "5" }]);
    expect(rulesAfter(rules, [], now, now).rules).toEqual([]);
    expect(
      rulesAfter([], [{ trigger: "threshold", threshold_credits: "5", paid_credits: "1" }], now, now).rules,
    ).toMatchObject([{ trigger: "threshold", interval: null, threshold_credits: "5", next_due_at: null }]);
    expect(rulesAfter([], [{ trigger: "threshold", paid_credits: "1" }], now, now).errors).toEqual({
      recurring_transaction_rules: ["invalid_threshold_credits"],
    });
    expect(rulesAfter([], [{ interval: "daily" }], now, now).errors).toEqual({
      recurring_transaction_rules: ["invalid_interval"],
    });
    expect(rulesAfter([], [{ interval: "monthly" }], now, now).errors).toEqual({
      recurring_transaction_rules: ["invalid_recurring_rule"],
    });
    expect(rulesAfter([], [{ interval: "monthly", method: "target" }], now, now).errors).toEqual({
      recurring_transaction_rules: ["invalid_target_ongoing_balance"],
    });
  });
});
