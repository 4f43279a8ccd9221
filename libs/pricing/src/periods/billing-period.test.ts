import { describe, expect, it } from "vitest";
import {
  type SubscriptionTiming,
  billingPeriodFor,
  isUpgrade,
  nextBillingDate,
  periodContaining,
  planChangeBoundaries,
  previousBillingPeriod,
  oneIntervalBack,
} from "./billing-period";

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
    expect(previousBillingPeriod(timing({}), "2024-04-01")).toMatchObject({
      from_date: "2024-03-01",
      to_date: "2024-03-31",
    });
    expect(nextBillingDate(timing({ billing_time: "anniversary" }), "2024-02-10")).toBe("2024-02-29");
  });

  it("splits an immediate plan change at the start of the change day", () => {
    const { old_to_datetime, new_from_datetime } = planChangeBoundaries("2024-03-15T14:00:00Z", "Europe/Paris");
    expect(old_to_datetime.toISOString()).toBe("2024-03-14T22:59:59.999Z");
    expect(new_from_datetime.toISOString()).toBe("2024-03-14T23:00:00.000Z");
  });

  it("compares plans on their yearly-equivalent amount", () => {
    expect(isUpgrade({ interval: "monthly", amount_cents: 1000 }, { interval: "yearly", amount_cents: 12000 })).toBe(
      true,
    );
    expect(isUpgrade({ interval: "monthly", amount_cents: 1000 }, { interval: "yearly", amount_cents: 11999 })).toBe(
      false,
    );
  });
});

describe("which period a billing date bills (billing-rules §4: one interval back)", () => {
  const calendar = {
    interval: "monthly" as const,
    billing_time: "calendar" as const,
    subscription_at: "2023-06-01T00:00:00Z",
    started_at: "2023-06-01T00:00:00Z",
    timezone: "UTC",
  };
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

describe("previousBillingPeriod: one interval back from the billing date, table", () => {
  const sub = (
    interval: SubscriptionTiming["interval"],
    billing_time: SubscriptionTiming["billing_time"],
    anchor: string,
    timezone = "UTC",
  ): SubscriptionTiming => ({
    interval,
    billing_time,
    subscription_at: `${anchor}T00:00:00Z`,
    started_at: "2019-01-01T00:00:00Z",
    timezone,
  });
  it.each([
    // calendar: the billing day, or any day off a boundary, bills the previous whole period
    ["weekly", "calendar", "2020-01-01", "2024-03-11", "2024-03-04", "2024-03-10", 7],
    ["weekly", "calendar", "2020-01-01", "2024-03-13", "2024-03-04", "2024-03-10", 7],
    ["monthly", "calendar", "2020-01-01", "2024-03-01", "2024-02-01", "2024-02-29", 29],
    ["monthly", "calendar", "2020-01-01", "2024-03-31", "2024-02-01", "2024-02-29", 29],
    ["quarterly", "calendar", "2020-01-01", "2024-04-01", "2024-01-01", "2024-03-31", 91],
    ["quarterly", "calendar", "2020-01-01", "2024-05-31", "2024-01-01", "2024-03-31", 91],
    ["semiannual", "calendar", "2020-01-01", "2024-07-01", "2024-01-01", "2024-06-30", 182],
    ["yearly", "calendar", "2020-01-01", "2025-01-01", "2024-01-01", "2024-12-31", 366],
    // anniversary
    ["weekly", "anniversary", "2024-01-03", "2024-03-06", "2024-02-28", "2024-03-05", 7],
    ["monthly", "anniversary", "2023-01-15", "2024-03-15", "2024-02-15", "2024-03-14", 29],
    ["monthly", "anniversary", "2023-01-15", "2024-03-20", "2024-02-15", "2024-03-14", 29],
    ["monthly", "anniversary", "2023-01-15", "2024-03-10", "2024-01-15", "2024-02-14", 31],
    // anniversary on the 31st: boundaries on Feb 29, Mar 31, Apr 30, without drifting
    ["monthly", "anniversary", "2023-01-31", "2024-02-29", "2024-01-31", "2024-02-28", 29],
    ["monthly", "anniversary", "2023-01-31", "2024-03-31", "2024-02-29", "2024-03-30", 31],
    ["monthly", "anniversary", "2023-01-31", "2024-04-30", "2024-03-31", "2024-04-29", 30],
    ["monthly", "anniversary", "2023-01-31", "2024-05-31", "2024-04-30", "2024-05-30", 31],
    ["monthly", "anniversary", "2023-01-31", "2023-02-28", "2023-01-31", "2023-02-27", 28],
    ["monthly", "anniversary", "2023-01-31", "2024-04-15", "2024-02-29", "2024-03-30", 31],
    ["monthly", "anniversary", "2023-01-31", "2023-03-30", "2023-01-31", "2023-02-27", 28],
    // anniversary on the 30th: February's boundary is its last day
    ["monthly", "anniversary", "2023-01-30", "2024-02-29", "2024-01-30", "2024-02-28", 30],
    ["monthly", "anniversary", "2023-01-30", "2024-03-30", "2024-02-29", "2024-03-29", 30],
    ["quarterly", "anniversary", "2023-11-30", "2024-02-29", "2023-11-30", "2024-02-28", 91],
    ["quarterly", "anniversary", "2023-11-30", "2024-05-30", "2024-02-29", "2024-05-29", 91],
    ["semiannual", "anniversary", "2023-08-31", "2024-02-29", "2023-08-31", "2024-02-28", 182],
    ["yearly", "anniversary", "2020-02-29", "2023-02-28", "2022-02-28", "2023-02-27", 365],
    ["yearly", "anniversary", "2020-02-29", "2024-02-29", "2023-02-28", "2024-02-28", 366],
  ] as const)(
    "%s %s (anchor %s) billed on %s: %s..%s (%i days)",
    (interval, billingTime, anchor, billingDate, from, to, days) => {
      const p = previousBillingPeriod(sub(interval, billingTime, anchor), billingDate);
      expect([p.from_date, p.to_date, p.period_days, p.billed_days]).toEqual([from, to, days, days]);
    },
  );

  it("reads an instant as the customer's date: 2022-03-01T00:00Z in New York is Feb 28, so January is billed", () => {
    const p = previousBillingPeriod(
      sub("monthly", "calendar", "2020-01-01", "America/New_York"),
      "2022-03-01T00:00:00Z",
    );
    expect([p.from_date, p.to_date]).toEqual(["2022-01-01", "2022-01-31"]);
    expect(p.from_datetime.toISOString()).toBe("2022-01-01T05:00:00.000Z");
    expect(p.to_datetime.toISOString()).toBe("2022-02-01T04:59:59.999Z");
    // the same instant for a UTC customer bills February
    expect(
      previousBillingPeriod(sub("monthly", "calendar", "2020-01-01"), new Date("2022-03-01T00:00:00Z")).from_date,
    ).toBe("2022-02-01");
  });

  it("spans a spring DST change in New York: March billed from 05:00Z to 03:59:59.999Z, 31 days", () => {
    const timing = sub("monthly", "calendar", "2020-01-01", "America/New_York");
    const p = previousBillingPeriod(timing, "2024-04-01T04:00:00Z");
    expect([p.from_date, p.to_date, p.period_days]).toEqual(["2024-03-01", "2024-03-31", 31]);
    expect(p.from_datetime.toISOString()).toBe("2024-03-01T05:00:00.000Z");
    expect(p.to_datetime.toISOString()).toBe("2024-04-01T03:59:59.999Z");
    // half an hour earlier it is still March 31 in New York: February is billed
    expect(previousBillingPeriod(timing, "2024-04-01T03:30:00Z").from_date).toBe("2024-02-01");
  });

  it("spans an autumn DST change in Paris: the week of Oct 21–27 2024 is 7 days", () => {
    const timing = sub("weekly", "calendar", "2020-01-01", "Europe/Paris");
    const p = previousBillingPeriod(timing, "2024-10-27T23:00:00Z");
    expect([p.from_date, p.to_date, p.period_days]).toEqual(["2024-10-21", "2024-10-27", 7]);
    expect(p.from_datetime.toISOString()).toBe("2024-10-20T22:00:00.000Z");
    expect(p.to_datetime.toISOString()).toBe("2024-10-27T22:59:59.999Z");
  });

  it("steps a month-end anniversary back to the previous boundary", () => {
    expect(oneIntervalBack("monthly", "2024-02-29", 31)).toBe("2024-01-31");
    expect(oneIntervalBack("monthly", "2024-04-30", 31)).toBe("2024-03-31");
    expect(oneIntervalBack("monthly", "2024-04-30", 15)).toBe("2024-03-30");
    expect(oneIntervalBack("yearly", "2023-02-28", 29)).toBe("2022-02-28");
  });

  it("reads the next billing day of an instant in the customer's zone", () => {
    expect(nextBillingDate(sub("monthly", "calendar", "2020-01-01", "America/New_York"), "2024-04-01T03:30:00Z")).toBe(
      "2024-04-01",
    );
  });
});
