import { describe, expect, it } from "vitest";
import { crossedUsageThresholds } from "./invoice/usage-thresholds";
import {
  allocateOngoingUsage,
  centsToCredits,
  creditsToCents,
  targetTopUpCredits,
  thresholdTopUpPaidCredits,
  topUpRoundsToZero,
} from "./wallet";

describe("wallet conversions", () => {
  it("keeps only whole cents: 1034 credits @ 0.001 -> 1.03 EUR -> 1030 credits", () => {
    expect(creditsToCents("1034", "0.001", "EUR")).toEqual({
      amount_cents: 103,
      amount: "1.03",
      credit_amount: "1030.0",
    });
  });

  it("floors input credits to 5 decimals and rounds money half away from zero", () => {
    expect(creditsToCents("10.123459", "1", "EUR")).toMatchObject({ amount_cents: 1012 });
    expect(creditsToCents("0.005", "1", "USD")).toMatchObject({ amount_cents: 1 });
    expect(creditsToCents("3", "150", "JPY")).toMatchObject({ amount_cents: 450, amount: "450" });
  });

  it("converts money back to credits", () => {
    expect(centsToCredits(103, "0.001", "EUR")).toBe("1030.0");
    expect(centsToCredits(250.4, "0.5", "EUR")).toBe("5.0");
  });

  it("rejects a top-up that rounds to zero cents", () => {
    expect(topUpRoundsToZero("0.004", "1", "EUR")).toBe(true);
    expect(topUpRoundsToZero("0.005", "1", "EUR")).toBe(false);
  });

  it("tops up strictly above a threshold with multiples of the paid credits", () => {
    expect(
      thresholdTopUpPaidCredits({ threshold_credits: "100", ongoing_balance_credits: "5", paid_credits: "20" }),
    ).toBe("100.0");
    expect(
      thresholdTopUpPaidCredits({ threshold_credits: "100", ongoing_balance_credits: "95", paid_credits: "20" }),
    ).toBe("20.0");
    expect(
      thresholdTopUpPaidCredits({
        threshold_credits: "100",
        ongoing_balance_credits: "5",
        paid_credits: "20",
        max_paid_credits: "50",
      }),
    ).toBe("50.0");
  });

  it("tops up to a target balance", () => {
    expect(targetTopUpCredits("100", "40")).toBe("60.0");
    expect(targetTopUpCredits("100", "120")).toBe("0.0");
    expect(targetTopUpCredits("100", "95", "10")).toBe("10.0");
  });
});

describe("usage thresholds", () => {
  const thresholds = [{ amount_cents: 1000 }, { amount_cents: 5000 }, { amount_cents: 2000, recurring: true }];
  const usage = { historical_usage_cents: 0, invoiced_usage_cents: 0, progressive_billed_cents: 0 };

  it("passes every fixed threshold crossed by the lifetime usage", () => {
    expect(
      crossedUsageThresholds({ thresholds, ...usage, current_usage_cents: 6000 }).map((t) => t.amount_cents),
    ).toEqual([1000, 5000]);
  });

  it("passes the recurring threshold beyond the largest fixed one", () => {
    expect(
      crossedUsageThresholds({ thresholds, ...usage, current_usage_cents: 7000 }).map((t) => t.amount_cents),
    ).toEqual([1000, 5000, 2000]);
  });

  it("never passes fixed thresholds again once invoiced usage is above them", () => {
    const later = { thresholds, historical_usage_cents: 0, invoiced_usage_cents: 6500, progressive_billed_cents: 0 };
    expect(crossedUsageThresholds({ ...later, current_usage_cents: 1000 })).toEqual([]); // 6500 mod 2000 = 500; 500 + 1000 < 2000
    expect(crossedUsageThresholds({ ...later, current_usage_cents: 1500 }).map((t) => t.amount_cents)).toEqual([2000]);
  });
});

describe("ongoing usage over wallets", () => {
  it("fills wallets in order up to their balances; the last takes the rest and may go below zero", () => {
    const wallets = [
      { id: "a", balance_cents: 500 },
      { id: "b", balance_cents: 300 },
    ];
    expect(Object.fromEntries(allocateOngoingUsage(wallets, 600))).toEqual({ a: 500, b: 100 });
    expect(Object.fromEntries(allocateOngoingUsage(wallets, 1_000))).toEqual({ a: 500, b: 500 });
    expect(Object.fromEntries(allocateOngoingUsage(wallets, 0))).toEqual({ a: 0, b: 0 });
  });
});
