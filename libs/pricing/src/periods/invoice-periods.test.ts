import { describe, expect, it } from "vitest";
import type { SubscriptionTiming } from "./billing-period";
import {
  billingCadence,
  firstAdvanceBillingDate,
  opensPlanPeriod,
  subscriptionInvoicePeriods,
} from "./invoice-periods";

const timing: SubscriptionTiming = {
  interval: "monthly",
  billing_time: "calendar",
  subscription_at: "2024-03-10T09:00:00Z",
  started_at: "2024-03-10T09:00:00Z",
};
const arrears = { amount_cents: 3100, pay_in_advance: false };
const advance = { amount_cents: 3100, pay_in_advance: true };

describe("subscription invoice periods", () => {
  it("bills an arrears plan for the period that ended, prorated from the start day", () => {
    const result = subscriptionInvoicePeriods({
      timing,
      plan: arrears,
      reason: "subscription_periodic",
      billing_date: "2024-04-01",
    });
    expect(result.subscription?.fee).toMatchObject({ amount_cents: 2200, days: 22 });
    expect(result.charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-03-31" });
  });

  it("bills an advance plan for the period that starts and charges for the one that ended", () => {
    const result = subscriptionInvoicePeriods({
      timing,
      plan: advance,
      reason: "subscription_periodic",
      billing_date: "2024-04-01",
    });
    expect(result.subscription?.period).toMatchObject({ from_date: "2024-04-01", to_date: "2024-04-30" });
    expect(result.subscription?.fee.amount_cents).toBe(3100);
    expect(result.charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-03-31" });
  });

  it("issues only the prorated base fee when an advance plan starts", () => {
    const result = subscriptionInvoicePeriods({
      timing,
      plan: advance,
      reason: "subscription_starting",
      billing_date: "2024-03-10",
    });
    expect(result).toMatchObject({ charges: null, subscription: { fee: { amount_cents: 2200 } } });
  });

  it("never prorates an anniversary advance plan's first invoice (its period starts on the start day)", () => {
    const anniversary = { ...timing, billing_time: "anniversary" as const };
    const result = subscriptionInvoicePeriods({
      timing: anniversary,
      plan: advance,
      reason: "subscription_starting",
      billing_date: "2024-03-10",
    });
    expect(result.subscription?.fee.amount_cents).toBe(3100);
  });

  it("bills a termination up to the termination day, base fee only in arrears", () => {
    const terminated = { ...timing, terminated_at: "2024-04-15T00:00:00Z" };
    const result = subscriptionInvoicePeriods({
      timing: terminated,
      plan: { ...arrears, amount_cents: 3000 },
      reason: "subscription_terminating",
    });
    expect(result.subscription?.fee).toMatchObject({ days: 15, amount_cents: 1500 });
    expect(
      subscriptionInvoicePeriods({ timing: terminated, plan: advance, reason: "subscription_terminating" })
        .subscription,
    ).toBeNull();
  });

  it("bills nothing during a trial and starts an advance plan on the trial end day", () => {
    const result = subscriptionInvoicePeriods({
      timing,
      plan: { ...arrears, trial_period: 30 },
      reason: "subscription_periodic",
      billing_date: "2024-04-01",
    });
    expect(result.subscription?.fee.amount_cents).toBe(0);
    expect(firstAdvanceBillingDate("2024-03-10T09:00:00Z", 14)).toBe("2024-03-24");
  });
});

describe("subscription invoice periods: which period a billing date bills (§4)", () => {
  it("bills the previous whole period for an invoice triggered off a boundary", () => {
    const result = subscriptionInvoicePeriods({
      timing,
      plan: arrears,
      reason: "subscription_periodic",
      billing_date: "2024-05-20",
    });
    expect(result.charges).toMatchObject({ from_date: "2024-04-01", to_date: "2024-04-30" });
    expect(result.subscription?.period).toMatchObject({ from_date: "2024-04-01", to_date: "2024-04-30" });
  });

  it("reads an instant billing date in the customer's zone (00:00Z is still Feb 28 in New York)", () => {
    const ny = {
      ...timing,
      subscription_at: "2021-06-01T12:00:00Z",
      started_at: "2021-06-01T12:00:00Z",
      timezone: "America/New_York",
    };
    const result = subscriptionInvoicePeriods({
      timing: ny,
      plan: arrears,
      reason: "subscription_periodic",
      billing_date: "2022-03-01T00:00:00Z",
    });
    expect(result.charges).toMatchObject({ from_date: "2022-01-01", to_date: "2022-01-31" });
    expect(result.subscription?.fee).toMatchObject({ amount_cents: 3100, days: 31 });
  });

  it("bills an anniversary on the 31st on Feb 29 for Jan 31–Feb 28, the advance fee for Feb 29–Mar 30", () => {
    const on31 = {
      ...timing,
      billing_time: "anniversary" as const,
      subscription_at: "2024-01-31T09:00:00Z",
      started_at: "2024-01-31T09:00:00Z",
    };
    const result = subscriptionInvoicePeriods({
      timing: on31,
      plan: advance,
      reason: "subscription_periodic",
      billing_date: "2024-02-29",
    });
    expect(result.charges).toMatchObject({ from_date: "2024-01-31", to_date: "2024-02-28", period_days: 29 });
    expect(result.subscription?.period).toMatchObject({
      from_date: "2024-02-29",
      to_date: "2024-03-30",
      period_days: 31,
    });
    expect(result.subscription?.fee.amount_cents).toBe(3100);
    expect(result.commitment).toMatchObject({ from_date: "2024-01-31", to_date: "2024-02-28" });
  });

  it("bills a month across the spring DST change in New York for its 31 days", () => {
    const ny = {
      ...timing,
      subscription_at: "2023-06-01T12:00:00Z",
      started_at: "2023-06-01T12:00:00Z",
      timezone: "America/New_York",
    };
    const result = subscriptionInvoicePeriods({
      timing: ny,
      plan: arrears,
      reason: "subscription_periodic",
      billing_date: "2024-04-01T04:00:00Z",
    });
    expect(result.subscription?.fee).toMatchObject({ amount_cents: 3100, days: 31 });
    expect(result.charges?.to_datetime.toISOString()).toBe("2024-04-01T03:59:59.999Z");
  });

  it("splits an upgrade: the old plan up to the day before, the new one from the upgrade day on the old anniversary", () => {
    const old = {
      ...timing,
      started_at: "2024-02-01T00:00:00Z",
      subscription_at: "2024-02-01T00:00:00Z",
      terminated_at: "2024-03-14T23:59:59.999Z",
    };
    const closing = subscriptionInvoicePeriods({ timing: old, plan: arrears, reason: "subscription_terminating" });
    expect(closing.subscription?.fee).toMatchObject({ days: 14, amount_cents: 1400 });
    expect(closing.charges).toMatchObject({ from_date: "2024-03-01", to_date: "2024-03-14" });
    const upgraded = { ...timing, subscription_at: "2024-02-01T00:00:00Z", started_at: "2024-03-15T00:00:00Z" };
    const opening = subscriptionInvoicePeriods({
      timing: upgraded,
      plan: { amount_cents: 6200, pay_in_advance: true },
      reason: "subscription_starting",
      billing_date: "2024-03-15",
    });
    expect(opening.subscription?.fee).toMatchObject({ days: 17, amount_cents: 3400 });
  });
});

describe("subscription invoice periods: yearly plans billing charges or fixed charges monthly", () => {
  const yearly = { ...timing, interval: "yearly" as const };
  const monthlyCharges = { amount_cents: 36600, pay_in_advance: false, bill_charges_monthly: true };

  it("invoices every month: the month's charges, no base fee inside the year", () => {
    const april = subscriptionInvoicePeriods({
      timing: yearly,
      plan: monthlyCharges,
      reason: "subscription_periodic",
      billing_date: "2024-04-01",
    });
    expect(april).toMatchObject({
      subscription: null,
      fixed_charges: null,
      fixed_charges_in_advance: null,
      commitment: null,
    });
    expect(april.charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-03-31", period_days: 31 });
    expect(billingCadence(yearly, monthlyCharges).interval).toBe("monthly");
    expect(billingCadence(yearly, { bill_charges_monthly: false }).interval).toBe("yearly");
  });

  it("bills the yearly base fee (prorated from the start) and the commitment when the year closes", () => {
    const january = subscriptionInvoicePeriods({
      timing: yearly,
      plan: monthlyCharges,
      reason: "subscription_periodic",
      billing_date: "2025-01-01",
    });
    expect(january.charges).toMatchObject({ from_date: "2024-12-01", to_date: "2024-12-31" });
    expect(january.subscription?.period).toMatchObject({
      from_date: "2024-03-10",
      to_date: "2024-12-31",
      period_days: 366,
    });
    expect(january.subscription?.fee).toMatchObject({ days: 297, amount_cents: 29700 });
    expect(january.commitment).toMatchObject({ from_date: "2024-03-10", to_date: "2024-12-31" });
    expect(january.fixed_charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-12-31" });
  });

  it("bills fixed charges monthly in advance and in arrears, and yearly charges only at the year's start", () => {
    const plan = { amount_cents: 12000, pay_in_advance: true, bill_fixed_charges_monthly: true };
    const february = subscriptionInvoicePeriods({
      timing: yearly,
      plan,
      reason: "subscription_periodic",
      billing_date: "2025-02-01",
    });
    expect(february).toMatchObject({ subscription: null, charges: null, commitment: null });
    expect(february.fixed_charges).toMatchObject({ from_date: "2025-01-01", to_date: "2025-01-31" });
    expect(february.fixed_charges_in_advance).toMatchObject({ from_date: "2025-02-01", to_date: "2025-02-28" });
    const january = subscriptionInvoicePeriods({
      timing: yearly,
      plan,
      reason: "subscription_periodic",
      billing_date: "2025-01-01",
    });
    expect(january.subscription?.period).toMatchObject({ from_date: "2025-01-01", to_date: "2025-12-31" });
    expect(january.charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-12-31" });
    expect(january.fixed_charges_in_advance).toMatchObject({ from_date: "2025-01-01", to_date: "2025-01-31" });
  });

  it("follows the anniversary month grid, the 31st included", () => {
    const on31 = {
      ...yearly,
      billing_time: "anniversary" as const,
      subscription_at: "2024-01-31T00:00:00Z",
      started_at: "2024-01-31T00:00:00Z",
    };
    const feb = subscriptionInvoicePeriods({
      timing: on31,
      plan: monthlyCharges,
      reason: "subscription_periodic",
      billing_date: "2024-02-29",
    });
    expect(feb.subscription).toBeNull();
    expect(feb.charges).toMatchObject({ from_date: "2024-01-31", to_date: "2024-02-28" });
    const closing = subscriptionInvoicePeriods({
      timing: on31,
      plan: monthlyCharges,
      reason: "subscription_periodic",
      billing_date: "2025-01-31",
    });
    expect(closing.subscription?.period).toMatchObject({
      from_date: "2024-01-31",
      to_date: "2025-01-30",
      period_days: 366,
    });
    expect(closing.charges).toMatchObject({ from_date: "2024-12-31", to_date: "2025-01-30" });
    expect(opensPlanPeriod(on31, "2025-01-31")).toBe(true);
    expect(opensPlanPeriod(on31, "2025-02-28")).toBe(false);
  });

  it("terminates with the month's charges and the year-to-date base fee", () => {
    const terminated = { ...yearly, terminated_at: "2024-06-15T10:00:00Z" };
    const result = subscriptionInvoicePeriods({
      timing: terminated,
      plan: monthlyCharges,
      reason: "subscription_terminating",
    });
    expect(result.charges).toMatchObject({ from_date: "2024-06-01", to_date: "2024-06-15" });
    expect(result.subscription?.period).toMatchObject({ from_date: "2024-03-10", to_date: "2024-06-15" });
    expect(result.commitment).toMatchObject({ from_date: "2024-03-10", to_date: "2024-06-15", period_days: 366 });
  });
});

describe("subscription invoice periods: a yearly plan invoiced on its own grid", () => {
  it("bills the previous whole year off a boundary when nothing is billed monthly", () => {
    const yearly = { ...timing, interval: "yearly" as const };
    const result = subscriptionInvoicePeriods({
      timing: yearly,
      plan: arrears,
      reason: "subscription_periodic",
      billing_date: "2025-03-15",
    });
    expect(result.subscription?.period).toMatchObject({ from_date: "2024-03-10", to_date: "2024-12-31" });
    expect(result.charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-12-31" });
    expect(result.commitment).toMatchObject({ from_date: "2024-03-10", to_date: "2024-12-31" });
  });
});
