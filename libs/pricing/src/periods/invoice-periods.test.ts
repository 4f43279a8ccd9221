import { describe, expect, it } from "vitest";
import type { SubscriptionTiming } from "./billing-period";
import { firstAdvanceBillingDate, subscriptionInvoicePeriods } from "./invoice-periods";

const timing: SubscriptionTiming = { interval: "monthly", billing_time: "calendar", subscription_at: "2024-03-10T09:00:00Z", started_at: "2024-03-10T09:00:00Z" };
const arrears = { amount_cents: 3100, pay_in_advance: false };
const advance = { amount_cents: 3100, pay_in_advance: true };

describe("subscription invoice periods", () => {
  it("bills an arrears plan for the period that ended, prorated from the start day", () => {
    const result = subscriptionInvoicePeriods({ timing, plan: arrears, reason: "subscription_periodic", billing_date: "2024-04-01" });
    expect(result.subscription?.fee).toMatchObject({ amount_cents: 2200, days: 22 });
    expect(result.charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-03-31" });
  });

  it("bills an advance plan for the period that starts and charges for the one that ended", () => {
    const result = subscriptionInvoicePeriods({ timing, plan: advance, reason: "subscription_periodic", billing_date: "2024-04-01" });
    expect(result.subscription?.period).toMatchObject({ from_date: "2024-04-01", to_date: "2024-04-30" });
    expect(result.subscription?.fee.amount_cents).toBe(3100);
    expect(result.charges).toMatchObject({ from_date: "2024-03-10", to_date: "2024-03-31" });
  });

  it("issues only the prorated base fee when an advance plan starts", () => {
    const result = subscriptionInvoicePeriods({ timing, plan: advance, reason: "subscription_starting", billing_date: "2024-03-10" });
    expect(result).toMatchObject({ charges: null, subscription: { fee: { amount_cents: 2200 } } });
  });

  it("never prorates an anniversary advance plan's first invoice (its period starts on the start day)", () => {
    const anniversary = { ...timing, billing_time: "anniversary" as const };
    const result = subscriptionInvoicePeriods({ timing: anniversary, plan: advance, reason: "subscription_starting", billing_date: "2024-03-10" });
    expect(result.subscription?.fee.amount_cents).toBe(3100);
  });

  it("bills a termination up to the termination day, base fee only in arrears", () => {
    const terminated = { ...timing, terminated_at: "2024-04-15T00:00:00Z" };
    const result = subscriptionInvoicePeriods({ timing: terminated, plan: { ...arrears, amount_cents: 3000 }, reason: "subscription_terminating" });
    expect(result.subscription?.fee).toMatchObject({ days: 15, amount_cents: 1500 });
    expect(subscriptionInvoicePeriods({ timing: terminated, plan: advance, reason: "subscription_terminating" }).subscription).toBeNull();
  });

  it("bills nothing during a trial and starts an advance plan on the trial end day", () => {
    const result = subscriptionInvoicePeriods({ timing, plan: { ...arrears, trial_period: 30 }, reason: "subscription_periodic", billing_date: "2024-04-01" });
    expect(result.subscription?.fee.amount_cents).toBe(0);
    expect(firstAdvanceBillingDate("2024-03-10T09:00:00Z", 14)).toBe("2024-03-24");
  });
});
