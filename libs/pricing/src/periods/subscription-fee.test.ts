import { describe, expect, it } from "vitest";
import { invoiceIssuingDates, paymentDueDate } from "./issuing-date";
import { dateDiffWithTimezone } from "./proration";
import { computeSubscriptionFee, trialEndedAt, unusedDays } from "./subscription-fee";

describe("base fee proration", () => {
  it("bills the full amount for a whole period", () => {
    const fee = computeSubscriptionFee({
      plan_amount_cents: 1000,
      from_datetime: "2024-03-01T00:00:00Z",
      to_datetime: "2024-03-31T23:59:59.999Z",
      period_days: 31,
    });
    expect(fee).toMatchObject({ amount_cents: 1000, days: 31, amount_details: { plan_amount_cents: 1000 } });
  });

  it("prorates by whole days with a Float single-day price (Lago's float tail)", () => {
    const fee = computeSubscriptionFee({
      plan_amount_cents: 1000,
      from_datetime: "2024-03-15T00:00:00Z",
      to_datetime: "2024-03-31T23:59:59.999Z",
      period_days: 31,
    });
    expect(fee).toMatchObject({ amount_cents: 548, days: 17, precise_amount_cents: "548.3870967741935" });
  });

  it("still bills the termination day when terminated at 00:00", () => {
    expect(dateDiffWithTimezone("2024-03-01T00:00:00Z", "2024-03-15T00:00:00Z")).toBe(15);
  });

  it("counts days across a DST change in the customer's zone", () => {
    expect(dateDiffWithTimezone("2024-03-01T05:00:00Z", "2024-04-01T03:59:59.999Z", "America/New_York")).toBe(31);
  });

  it("bills nothing while a trial covers the period, and from the trial end otherwise", () => {
    const span = {
      plan_amount_cents: 3100,
      from_datetime: "2024-03-01T00:00:00Z",
      to_datetime: "2024-03-31T23:59:59.999Z",
      period_days: 31,
    };
    expect(computeSubscriptionFee({ ...span, trial_ended_at: "2024-04-05T00:00:00Z" }).amount_cents).toBe(0);
    expect(
      computeSubscriptionFee({ ...span, trial_ended_at: trialEndedAt("2024-02-20T00:00:00Z", 20) }).amount_cents,
    ).toBe(2100);
  });

  it("counts unused days of an advance period", () => {
    expect(unusedDays("2024-03-20T10:00:00Z", "2024-03-31")).toBe(11);
  });
});

describe("issuing dates", () => {
  const at = "2024-04-01T02:00:00Z";
  it.each([
    ["current_period_end", "keep_anchor", 0, "2024-03-31"],
    ["current_period_end", "align_with_finalization_date", 0, "2024-03-31"],
    ["current_period_end", "align_with_finalization_date", 3, "2024-04-04"],
    ["next_period_start", "keep_anchor", 3, "2024-04-01"],
    ["next_period_start", "align_with_finalization_date", 3, "2024-04-04"],
  ] as const)("periodic invoice, %s + %s, grace %i -> %s", (anchor, adjustment, grace, expected) => {
    const dates = invoiceIssuingDates({
      invoicing_at: at,
      invoice_type: "subscription",
      periodic: true,
      anchor,
      adjustment,
      grace_period_days: grace,
    });
    expect(dates.issuing_date).toBe(expected);
  });

  it("adds the grace period to non-periodic subscription invoices only", () => {
    expect(
      invoiceIssuingDates({ invoicing_at: at, invoice_type: "subscription", periodic: false, grace_period_days: 2 }),
    ).toEqual({ issuing_date: "2024-04-03", expected_finalization_date: "2024-04-03" });
    expect(
      invoiceIssuingDates({ invoicing_at: at, invoice_type: "credit", periodic: false, grace_period_days: 2 })
        .issuing_date,
    ).toBe("2024-04-01");
  });

  it("uses the customer's day and adds the net payment term", () => {
    expect(
      invoiceIssuingDates({
        invoicing_at: at,
        timezone: "America/Los_Angeles",
        invoice_type: "one_off",
        periodic: false,
      }).issuing_date,
    ).toBe("2024-03-31");
    expect(paymentDueDate("2024-03-31", 30)).toBe("2024-04-30");
  });
});
