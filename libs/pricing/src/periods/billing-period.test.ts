import { describe, expect, it } from "vitest";
import { type SubscriptionTiming, billingPeriodFor, isUpgrade, nextBillingDate, periodContaining, planChangeBoundaries, previousBillingPeriod, oneIntervalBack } from "./billing-period";

const timing = (overrides: Partial<SubscriptionTiming>): SubscriptionTiming => ({
  interval: "monthly",
  billing_time: "calendar",
  subscription_at: "2024-01-31T10:00:00Z",
  started_at: "2024-01-31T10:00:00Z",
  ...overrides,
});

describe("billing periods", () => {
  it.each([
    ["weekly", "calendar", "2024-03-06", "2024-03-04", "2024-03-10"],
    ["monthly", "calendar", "2024-02-15", "2024-02-01", "2024-02-29"],
    ["quarterly", "calendar", "2024-05-15", "2024-04-01", "2024-06-30"],
    ["semiannual", "calendar", "2024-09-01", "2024-07-01", "2024-12-31"],
    ["yearly", "calendar", "2024-09-01", "2024-01-01", "2024-12-31"],
    ["weekly", "anniversary", "2024-03-06", "2024-03-06", "2024-03-12"],
    ["monthly", "anniversary", "2024-02-15", "2024-01-31", "2024-02-28"],
    ["monthly", "anniversary", "2024-03-05", "2024-02-29", "2024-03-30"],
    ["monthly", "anniversary", "2024-04-30", "2024-04-30", "2024-05-30"],
    ["quarterly", "anniversary", "2024-06-01", "2024-04-30", "2024-07-30"],
    ["yearly", "anniversary", "2025-01-30", "2024-01-31", "2025-01-30"],
  ] as const)("%s %s period holding %s is %s..%s", (interval, billingTime, date, start, end) => {
    expect(periodContaining(timing({ interval, billing_time: billingTime }), date)).toEqual({ start, end });
  });

  it("starts the first period on the subscription's start day", () => {
    const period = billingPeriodFor(timing({ started_at: "2024-03-15T09:00:00Z" }), "2024-03-20");
    expect(period).toMatchObject({ from_date: "2024-03-15", to_date: "2024-03-31", period_days: 31, billed_days: 17 });
    expect(period.from_datetime.toISOString()).toBe("2024-03-15T00:00:00.000Z");
    expect(period.to_datetime.toISOString()).toBe("2024-03-31T23:59:59.999Z");
  });

  it("computes boundaries in the customer's time zone", () => {
    const period = billingPeriodFor(timing({ timezone: "America/New_York" }), "2024-03-10");
    expect(period.from_datetime.toISOString()).toBe("2024-03-01T05:00:00.000Z");
    expect(period.to_datetime.toISOString()).toBe("2024-04-01T03:59:59.999Z");
  });

  it("cuts the period at the termination", () => {
    const period = billingPeriodFor(timing({ terminated_at: "2024-03-15T00:00:00Z" }), "2024-03-10");
    expect(period).toMatchObject({ to_date: "2024-03-15", billed_days: 15 });
  });

  it("bills in arrears the period before the billing day and knows the next billing day", () => {
    expect(previousBillingPeriod(timing({}), "2024-04-01")).toMatchObject({ from_date: "2024-03-01", to_date: "2024-03-31" });
    expect(nextBillingDate(timing({ billing_time: "anniversary" }), "2024-02-10")).toBe("2024-02-29");
  });

  it("splits an immediate plan change at the start of the change day", () => {
    const { old_to_datetime, new_from_datetime } = planChangeBoundaries("2024-03-15T14:00:00Z", "Europe/Paris");
    expect(old_to_datetime.toISOString()).toBe("2024-03-14T22:59:59.999Z");
    expect(new_from_datetime.toISOString()).toBe("2024-03-14T23:00:00.000Z");
  });

  it("compares plans on their yearly-equivalent amount", () => {
    expect(isUpgrade({ interval: "monthly", amount_cents: 1000 }, { interval: "yearly", amount_cents: 12000 })).toBe(true);
    expect(isUpgrade({ interval: "monthly", amount_cents: 1000 }, { interval: "yearly", amount_cents: 11999 })).toBe(false);
  });
});

describe("which period a billing date bills (billing-rules §4: one interval back)", () => {
  const calendar = { interval: "monthly" as const, billing_time: "calendar" as const, subscription_at: "2023-06-01T00:00:00Z", started_at: "2023-06-01T00:00:00Z", timezone: "UTC" };
  it("bills the month that just ended on a period start", () => {
    const p = previousBillingPeriod(calendar, "2024-03-01");
    expect([p.from_date, p.to_date]).toEqual(["2024-02-01", "2024-02-29"]);
  });
  it("bills the previous whole month off a boundary, not the current one", () => {
    const p = previousBillingPeriod(calendar, "2024-03-15");
    expect([p.from_date, p.to_date]).toEqual(["2024-02-01", "2024-02-29"]);
  });
  it("clamps a month back from the 31st to the shorter month's end", () => {
    expect(oneIntervalBack("monthly", "2024-03-31")).toBe("2024-02-29");
    expect(oneIntervalBack("quarterly", "2024-05-31")).toBe("2024-02-29");
    expect(oneIntervalBack("yearly", "2024-02-29")).toBe("2023-02-28");
    expect(oneIntervalBack("weekly", "2024-03-04")).toBe("2024-02-26");
  });
});
