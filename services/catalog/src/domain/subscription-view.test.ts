import { describe, expect, it } from "vitest";
import type { Subscription } from "./subscription";
import { applicableUsageThresholds, currentBillingPeriod, subscriptionView, trialEnd } from "./subscription-view";

const base: Subscription = {
  id: "s1",
  organization_id: "o",
  external_id: "ext",
  customer_id: "c1",
  external_customer_id: "cus",
  plan_id: "p1",
  plan_code: "basic",
  overridden: false,
  name: null,
  status: "active",
  billing_time: "calendar",
  subscription_at: new Date("2026-01-10T08:00:00Z"),
  started_at: new Date("2026-01-10T08:00:00Z"),
  initial_started_at: new Date("2026-01-10T08:00:00Z"),
  ending_at: null,
  terminated_at: null,
  canceled_at: null,
  activation_at: null,
  previous_subscription_id: null,
  previous_plan_code: null,
  next_subscription_id: null,
  next_plan_code: null,
  downgrade_plan_date: null,
  on_termination_credit_note: null,
  on_termination_invoice: "generate",
  timezone: "UTC",
  created_at: new Date("2026-01-10T08:00:00Z"),
  updated_at: new Date("2026-01-10T08:00:00Z"),
};
const plan = {
  interval: "monthly",
  amount_cents: 1000,
  amount_currency: "EUR",
  trial_period: 14,
  usage_thresholds: [],
};

describe("subscription view", () => {
  it("gives the period holding now: clamped to the start, then whole calendar months", () => {
    expect(currentBillingPeriod(base, plan, new Date("2026-01-20T00:00:00Z"))).toEqual({
      from: new Date("2026-01-10T00:00:00.000Z"),
      to: new Date("2026-01-31T23:59:59.999Z"),
    });
    expect(currentBillingPeriod(base, plan, new Date("2026-03-05T00:00:00Z"))).toEqual({
      from: new Date("2026-03-01T00:00:00.000Z"),
      to: new Date("2026-03-31T23:59:59.999Z"),
    });
  });

  it("uses anniversary days, quarterly intervals and the customer's zone", () => {
    const s = { ...base, billing_time: "anniversary" as const, timezone: "Asia/Tokyo" };
    expect(currentBillingPeriod(s, { interval: "quarterly" }, new Date("2026-05-01T00:00:00Z"))).toEqual({
      from: new Date("2026-04-09T15:00:00.000Z"),
      to: new Date("2026-07-09T14:59:59.999Z"),
    });
  });

  it("has no period while pending or canceled, and the last one once terminated", () => {
    expect(
      currentBillingPeriod({ ...base, status: "pending", started_at: null }, plan, new Date("2026-02-01T00:00:00Z")),
    ).toBeNull();
    const terminated = { ...base, status: "terminated" as const, terminated_at: new Date("2026-02-03T12:00:00Z") };
    expect(currentBillingPeriod(terminated, plan, new Date("2026-06-01T00:00:00Z"))).toEqual({
      from: new Date("2026-02-01T00:00:00.000Z"),
      to: new Date("2026-02-03T12:00:00.000Z"),
    });
  });

  it("shows the trial's end once it has passed, counted from the first start", () => {
    expect(trialEnd(base, plan, new Date("2026-01-20T00:00:00Z"))).toBeNull();
    expect(trialEnd(base, plan, new Date("2026-02-01T00:00:00Z"))).toEqual(new Date("2026-01-24T08:00:00Z"));
    expect(trialEnd(base, { trial_period: null }, new Date("2026-02-01T00:00:00Z"))).toBeNull();
  });

  it("sends every field of Lago's subscription object", () => {
    const view = subscriptionView(base, plan, new Date("2026-01-20T00:00:00Z"));
    expect(view).toMatchObject({
      svc_id: "s1",
      plan_amount_cents: 1000,
      plan_amount_currency: "EUR",
      trial_ended_at: null,
      canceled_at: null,
      payment_method: { payment_method_type: "provider", payment_method_id: null },
      applied_invoice_custom_sections: [],
    });
    expect(
      applicableUsageThresholds({
        ...plan,
        usage_thresholds: [
          {
            svc_id: "t",
            threshold_display_name: null,
            amount_cents: 5,
            recurring: true,
            created_at: "",
            updated_at: "",
          },
        ],
      }),
    ).toEqual([{ threshold_display_name: null, amount_cents: 5, recurring: true }]);
  });
});
