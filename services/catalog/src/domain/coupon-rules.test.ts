import { describe, expect, it } from "vitest";
import { couponViolations, normalizeCoupon } from "./coupon-rules";
import type { Coupon } from "./types";

const now = new Date("2026-01-01T00:00:00Z");
const coupon = (over: Partial<Coupon>): Coupon => ({
  id: "c",
  organization_id: "o",
  code: "c",
  name: "C",
  description: null,
  coupon_type: "fixed_amount",
  amount_cents: 100,
  amount_currency: "EUR",
  percentage_rate: null,
  reusable: true,
  frequency: "once",
  frequency_duration: null,
  expiration: "no_expiration",
  expiration_at: null,
  plan_codes: [],
  billable_metric_ids: [],
  limited_plans: false,
  limited_billable_metrics: false,
  status: "active",
  terminated_at: null,
  created_at: now,
  updated_at: now,
  deleted_at: null,
  ...over,
});

describe("coupon rules", () => {
  it("accepts a fixed amount coupon", () => {
    expect(couponViolations(coupon({}), now)).toBeNull();
  });

  it("wants a positive amount and a real currency on a fixed amount", () => {
    expect(couponViolations(coupon({ amount_cents: 0, amount_currency: "XYZ1" }), now)).toEqual({
      amount_cents: ["value_is_out_of_range"],
      amount_currency: ["value_is_invalid"],
    });
  });

  it("wants a rate in (0, 100] on a percentage", () => {
    const pct = (rate: string | null) =>
      couponViolations(coupon({ coupon_type: "percentage", percentage_rate: rate }), now);
    expect(pct(null)).toEqual({ percentage_rate: ["value_is_mandatory"] });
    expect(pct("0")).toEqual({ percentage_rate: ["value_is_out_of_range"] });
    expect(pct("12.5")).toBeNull();
  });

  it("wants a duration on a recurring coupon and a future date on a time limit", () => {
    expect(couponViolations(coupon({ frequency: "recurring", frequency_duration: 0 }), now)).toEqual({
      frequency_duration: ["value_is_out_of_range"],
    });
    expect(couponViolations(coupon({ expiration: "time_limit", expiration_at: new Date("2025-12-31") }), now)).toEqual({
      expiration_at: ["invalid_date"],
    });
  });

  it("does not re-check an expiration date an update leaves unchanged", () => {
    const stored = coupon({ expiration: "time_limit", expiration_at: new Date("2025-12-31") });
    expect(couponViolations({ ...stored, name: "New" }, now, stored)).toBeNull();
  });

  it("keeps only the values its type, frequency and expiration use, and derives limitations", () => {
    const normalized = normalizeCoupon(
      coupon({
        coupon_type: "percentage",
        percentage_rate: "5",
        frequency_duration: 3,
        expiration_at: new Date(),
        plan_codes: ["a", "a"],
      }),
    );
    expect(normalized).toMatchObject({
      amount_cents: null,
      amount_currency: null,
      frequency_duration: null,
      expiration_at: null,
      plan_codes: ["a"],
      limited_plans: true,
      limited_billable_metrics: false,
    });
  });
});
