import { describe, expect, it } from "vitest";
import type { AppliedCoupon } from "./applied-coupon";
import { consume, consumptionRefusal } from "./applied-coupon-consumption";
import { limitationsOverlap } from "./applied-coupon-overlap";
import { appliedCouponTerms, appliedCouponViolations, initialRemainders, reuseKeyOf } from "./applied-coupon-rules";
import type { Coupon } from "./types";

const now = new Date("2026-01-01T00:00:00Z");
const coupon = {
  amount_cents: 500,
  amount_currency: "EUR",
  percentage_rate: null,
  frequency: "once",
  frequency_duration: null,
} as unknown as Coupon;
const applied = (over: Partial<AppliedCoupon>): AppliedCoupon => ({
  id: "a",
  organization_id: "o",
  coupon_id: "c",
  customer_id: "k",
  external_customer_id: "x",
  status: "active",
  amount_cents: 500,
  amount_currency: "EUR",
  percentage_rate: null,
  frequency: "once",
  frequency_duration: null,
  amount_cents_remaining: 500,
  frequency_duration_remaining: null,
  reuse_key: "a",
  credits: [],
  created_at: now,
  updated_at: now,
  terminated_at: null,
  ...over,
});

describe("applied coupon terms", () => {
  it("takes the coupon's values where the client sent none, and shows rates as Lago does", () => {
    expect(
      appliedCouponTerms(coupon, {
        amount_cents: null,
        percentage_rate: "12.50",
        frequency: "recurring",
        frequency_duration: 3,
      }),
    ).toEqual({
      amount_cents: 500,
      amount_currency: "EUR",
      percentage_rate: "12.5",
      frequency: "recurring",
      frequency_duration: 3,
    });
    expect(appliedCouponTerms(coupon, { percentage_rate: "10" }).percentage_rate).toBe("10.0");
  });

  it("wants periods on a recurring coupon, a real currency and a rate in (0, 100]", () => {
    const terms = appliedCouponTerms(coupon, { frequency: "recurring", amount_currency: "XYZ1", percentage_rate: "0" });
    expect(appliedCouponViolations(terms)).toEqual({
      amount_currency: ["value_is_invalid"],
      percentage_rate: ["value_is_out_of_range"],
      frequency_duration: ["value_is_mandatory"],
    });
    expect(
      appliedCouponViolations(appliedCouponTerms(coupon, { frequency: "recurring", frequency_duration: 0 })),
    ).toEqual({ frequency_duration: ["value_is_out_of_range"] });
  });

  it("keeps a remaining amount only for a fixed amount used once, and one key per customer when not reusable", () => {
    expect(initialRemainders(appliedCouponTerms(coupon, {}), "fixed_amount")).toEqual({
      amount_cents_remaining: 500,
      frequency_duration_remaining: null,
    });
    expect(
      initialRemainders(appliedCouponTerms(coupon, { frequency: "forever" }), "fixed_amount").amount_cents_remaining,
    ).toBeNull();
    expect(reuseKeyOf({ id: "c", reusable: false }, "k", "a")).toBe("c/k");
    expect(reuseKeyOf({ id: "c", reusable: true }, "k", "a")).toBe("a");
  });
});

describe("plan overlapping", () => {
  const charged = new Map([
    ["basic", ["m1"]],
    ["pro", ["m2"]],
  ]);
  const overlaps = (
    candidate: { planCodes?: string[]; metricIds?: string[] },
    other: { planCodes?: string[]; metricIds?: string[] },
  ) =>
    limitationsOverlap(
      { planCodes: [], metricIds: [], ...candidate },
      [{ planCodes: [], metricIds: [], ...other }],
      charged,
    );

  it("finds shared plans, shared metrics, and plans charging the other's metrics, both ways", () => {
    expect(overlaps({ planCodes: ["basic"] }, { planCodes: ["basic"] })).toBe(true);
    expect(overlaps({ metricIds: ["m1"] }, { metricIds: ["m1"] })).toBe(true);
    expect(overlaps({ metricIds: ["m1"] }, { planCodes: ["basic"] })).toBe(true);
    expect(overlaps({ planCodes: ["basic"] }, { metricIds: ["m1"] })).toBe(true);
    expect(overlaps({ planCodes: ["pro"] }, { metricIds: ["m1"] })).toBe(false);
    expect(overlaps({}, { planCodes: ["basic"] })).toBe(false);
  });
});

describe("consumption", () => {
  it("ends a fixed amount used once when nothing is left, a recurring one after its last period, never a forever one", () => {
    expect(consume(applied({}), "fixed_amount", 200)).toEqual({
      amount_cents_remaining: 300,
      frequency_duration_remaining: null,
      terminated: false,
    });
    expect(consume(applied({}), "fixed_amount", 500).terminated).toBe(true);
    expect(consume(applied({ amount_cents_remaining: null }), "percentage", 10).terminated).toBe(true);
    const recurring = applied({
      frequency: "recurring",
      amount_cents_remaining: null,
      frequency_duration_remaining: 1,
    });
    expect(consume(recurring, "fixed_amount", 500)).toEqual({
      amount_cents_remaining: null,
      frequency_duration_remaining: 0,
      terminated: true,
    });
    expect(
      consume(applied({ frequency: "forever", amount_cents_remaining: null }), "fixed_amount", 500).terminated,
    ).toBe(false);
  });

  it("refuses inactive coupons, another currency and more than what is left", () => {
    const credit = { amount_cents: 100, amount_currency: "eur" };
    expect(consumptionRefusal(applied({}), "fixed_amount", credit)).toBeNull();
    expect(consumptionRefusal(applied({ status: "terminated" }), "fixed_amount", credit)).toBe(
      "applied_coupon_not_active",
    );
    expect(consumptionRefusal(applied({}), "fixed_amount", { ...credit, amount_currency: "USD" })).toBe(
      "currencies_does_not_match",
    );
    expect(consumptionRefusal(applied({}), "percentage", { ...credit, amount_currency: "USD" })).toBeNull();
    expect(consumptionRefusal(applied({}), "fixed_amount", { ...credit, amount_cents: 501 })).toBe(
      "amount_exceeds_remaining",
    );
  });
});
