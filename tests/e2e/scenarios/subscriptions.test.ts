import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  awaitInvoices,
  event,
  events,
  expectTotals,
  feeOf,
  feesOf,
  instant,
  invoicesOf,
  metric,
  numberPrefix,
  ok,
  plan,
  reasons,
  send,
  span,
  standard,
  subscribe,
} from "../../support/scenario";

// Subscription stories on sandbox organizations (billing-rules §4): when a subscription is billed,
// for which period, and how much of its base fee. Each story has its own organization and customer
// acme (EUR, UTC unless said otherwise); amounts in cents; "calls" is a count_agg metric.
const platform = scenarioPlatform("scn_subscriptions");
const story = platform.story;

const JAN = ["2024-01-01T00:00:00Z", "2024-01-31T23:59:59.999Z"];
const FEB = ["2024-02-01T00:00:00Z", "2024-02-29T23:59:59.999Z"];
const iso = (range: string[]) => range.map(instant);

describe("billing periods", () => {
  it("bills a monthly arrears plan at the end of its first month: base fee and usage", async () => {
    // Jan 1: acme subscribes to Starter (100.00 a month in arrears, 0.50 a call). Jan 10–16: 7 calls.
    const as = await story("Arrears", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls", { name: "API calls" });
    const starter = await plan(as, "starter", { amount_cents: 10_000, charges: [standard(calls, "0.5")] });
    const sub = await subscribe(as, "acme", "starter", "sub_1");
    await send(
      as,
      Array.from({ length: 7 }, (_, i) => event("sub_1", "calls", `2024-01-${10 + i}T10:00:00Z`)),
    );
    await advanceClock(as, "2024-02-01T12:00:00Z");

    const [invoice, ...more] = await invoicesOf(as, "acme");
    expect(more).toHaveLength(0);
    // Feb 1 bills January: the base fee 10,000 + 7 calls × 0.50 = 350
    expectTotals(invoice!, { fees: 10_350 });
    expect(invoice).toMatchObject({
      invoice_type: "subscription",
      status: "finalized",
      payment_status: "pending",
      currency: "EUR",
      // next_period_start + align_with_finalization_date, no grace period: the billing day; net payment term 0
      issuing_date: "2024-02-01",
      payment_due_date: "2024-02-01",
      net_payment_term: 0,
    });
    // acme is the organization's first customer (sequential_id 1); its first invoice (per_customer numbering)
    expect(invoice!.number).toBe(`${await numberPrefix(as)}-001-001`);
    const base = feeOf(invoice!, "subscription");
    expect(base).toMatchObject({
      amount_cents: 10_000,
      units: "1.0",
      item: { code: "starter", invoice_display_name: "Starter" },
    });
    expect(span(base.from_date, base.to_date)).toEqual(iso(JAN));
    const usage = feeOf(invoice!, "charge", "calls");
    expect(usage).toMatchObject({
      amount_cents: 350,
      units: "7.0",
      events_count: 7,
      item: { invoice_display_name: "API calls" },
    });
    expect(span(usage.from_date, usage.to_date)).toEqual(iso(JAN));
    const [period] = invoice!.billing_periods;
    expect(period).toMatchObject({
      svc_subscription_id: sub.svc_id,
      external_subscription_id: "sub_1",
      svc_plan_id: starter.svc_id,
      invoicing_reason: "subscription_periodic",
    });
    expect(span(period.subscription_from_datetime, period.subscription_to_datetime)).toEqual(iso(JAN));
    expect(span(period.charges_from_datetime, period.charges_to_datetime)).toEqual(iso(JAN));
  });

  it("bills a pay-in-advance plan when it starts, then each month's fee ahead with the past month's usage", async () => {
    // Jan 1: acme subscribes to Starter (100.00 a month in advance, 1.00 a call). Jan 5: one call.
    const as = await story("Advance", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "starter", { amount_cents: 10_000, pay_in_advance: true, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "starter", "sub_1");
    // the starting invoice comes within seconds of the subscription, not at a boundary
    const [starting] = await awaitInvoices(as, "acme", 1);
    // January in advance; a calendar subscription starting on the 1st is not prorated: 31/31 × 10,000
    expectTotals(starting!, { fees: 10_000 });
    expect(starting).toMatchObject({ status: "finalized", issuing_date: "2024-01-01" });
    expect(reasons(starting!)).toEqual([["sub_1", "subscription_starting"]]);
    expect(span(feeOf(starting!, "subscription").from_date, feeOf(starting!, "subscription").to_date)).toEqual(
      iso(JAN),
    );

    await send(as, [event("sub_1", "calls", "2024-01-05T00:00:00Z")]);
    await advanceClock(as, "2024-02-01T01:00:00Z");
    const [, periodic] = await awaitInvoices(as, "acme", 2);
    // Feb 1: February's fee ahead (10,000) + January's one call (100)
    expectTotals(periodic!, { fees: 10_100 });
    expect(periodic!.issuing_date).toBe("2024-02-01");
    const base = feeOf(periodic!, "subscription");
    expect([base.amount_cents, ...span(base.from_date, base.to_date)]).toEqual([10_000, ...iso(FEB)]);
    const usage = feeOf(periodic!, "charge", "calls");
    expect([usage.amount_cents, ...span(usage.from_date, usage.to_date)]).toEqual([100, ...iso(JAN)]);
    const prefix = await numberPrefix(as);
    expect([starting!.number, periodic!.number]).toEqual([`${prefix}-001-001`, `${prefix}-001-002`]);
  });

  it("prorates a calendar arrears plan started mid-month", async () => {
    // Jan 15 09:00: acme subscribes to a 50.00 monthly plan in arrears.
    const as = await story("Mid-month arrears", "2024-01-15T09:00:00Z");
    await plan(as, "starter", { amount_cents: 5_000 });
    await subscribe(as, "acme", "starter", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // Jan 15–31 = 17 days of a 31-day month: round(17 × 5000 / 31) = round(2741.94) = 2742
    expectTotals(invoice!, { fees: 2_742 });
    const base = feeOf(invoice!, "subscription");
    expect(base).toMatchObject({ amount_cents: 2_742, units: "1.0", amount_details: { plan_amount_cents: 5_000 } });
    // the first period starts at the beginning of the start day (customer's zone, UTC)
    expect(span(base.from_date, base.to_date)).toEqual(iso(["2024-01-15T00:00:00Z", JAN[1]!]));
  });

  it("prorates a calendar pay-in-advance plan's starting invoice, then bills whole months", async () => {
    // Jan 15 09:00: acme subscribes to a 50.00 monthly plan in advance.
    const as = await story("Mid-month advance", "2024-01-15T09:00:00Z");
    await plan(as, "starter", { amount_cents: 5_000, pay_in_advance: true });
    await subscribe(as, "acme", "starter", "sub_1");
    const [starting] = await awaitInvoices(as, "acme", 1);
    // Jan 15–31 in advance: round(17 × 5000 / 31) = 2742, issued on the start day
    expectTotals(starting!, { fees: 2_742 });
    expect(starting!.issuing_date).toBe("2024-01-15");
    expect(reasons(starting!)).toEqual([["sub_1", "subscription_starting"]]);
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [, february] = await awaitInvoices(as, "acme", 2);
    // February, whole, in advance: 5000
    expectTotals(february!, { fees: 5_000 });
    expect(span(feeOf(february!, "subscription").from_date, feeOf(february!, "subscription").to_date)).toEqual(
      iso(FEB),
    );
  });

  it("bills an anniversary plan on its anniversary, for the whole period", async () => {
    // Jan 15 09:00: acme subscribes on its anniversary to a 31.00 monthly plan in arrears.
    const as = await story("Anniversary", "2024-01-15T09:00:00Z");
    await plan(as, "starter", { amount_cents: 3_100 });
    await subscribe(as, "acme", "starter", "sub_1", { billing_time: "anniversary" });
    await advanceClock(as, "2024-02-14T23:00:00Z");
    expect(await invoicesOf(as, "acme")).toHaveLength(0); // the period runs to Feb 14 included
    await advanceClock(as, "2024-02-15T01:00:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // Jan 15 – Feb 14 is a whole anniversary period: 3100, not prorated
    expectTotals(invoice!, { fees: 3_100 });
    expect(invoice!.issuing_date).toBe("2024-02-15");
    const base = feeOf(invoice!, "subscription");
    expect(span(base.from_date, base.to_date)).toEqual(iso(["2024-01-15T00:00:00Z", "2024-02-14T23:59:59.999Z"]));
  });

  it("keeps an anniversary on the 31st at each short month's last day, without drifting", async () => {
    // Jan 31 10:00: acme subscribes on its anniversary to a 31.00 monthly plan in arrears.
    const as = await story("Anniversary 31st", "2024-01-31T10:00:00Z");
    await plan(as, "starter", { amount_cents: 3_100 });
    await subscribe(as, "acme", "starter", "sub_1", { billing_time: "anniversary" });
    await advanceClock(as, "2024-04-30T12:00:00Z");
    const invoices = await invoicesOf(as, "acme");
    // no Feb 31st: the boundary is the month's last day (Feb 29), then back on the 31st (Mar 31), then
    // Apr 30; each bills one whole period once (Lago's compute_base_date takes Mar 31, not Mar 30, as the
    // date one month before Apr 30 for a subscription on the 31st), 3100 each
    expect(
      invoices.map((i) => [
        i.issuing_date,
        i.fees_amount_cents,
        ...span(feeOf(i, "subscription").from_date, feeOf(i, "subscription").to_date),
      ]),
    ).toEqual([
      ["2024-02-29", 3_100, ...iso(["2024-01-31T00:00:00Z", "2024-02-28T23:59:59.999Z"])],
      ["2024-03-31", 3_100, ...iso(["2024-02-29T00:00:00Z", "2024-03-30T23:59:59.999Z"])],
      ["2024-04-30", 3_100, ...iso(["2024-03-31T00:00:00Z", "2024-04-29T23:59:59.999Z"])],
    ]);
  });

  it("prorates a quarterly calendar plan started mid-quarter", async () => {
    // Feb 15 08:00: acme subscribes to a 91.00 quarterly plan in arrears (Q1 2024 has 91 days: 1.00 a day).
    const as = await story("Quarterly", "2024-02-15T08:00:00Z");
    await plan(as, "quarterly", { interval: "quarterly", amount_cents: 9_100 });
    await subscribe(as, "acme", "quarterly", "sub_1");
    await advanceClock(as, "2024-04-01T00:30:00Z");
    const [invoice, ...more] = await invoicesOf(as, "acme");
    expect(more).toHaveLength(0); // nothing on Mar 1: a quarterly plan bills at the quarter's end
    // Feb 15–29 (15 days) + March (31) = 46 days of 91: 46 × 9100 / 91 = 4600
    expectTotals(invoice!, { fees: 4_600 });
    expect(invoice!.issuing_date).toBe("2024-04-01");
    const base = feeOf(invoice!, "subscription");
    expect(span(base.from_date, base.to_date)).toEqual(iso(["2024-02-15T00:00:00Z", "2024-03-31T23:59:59.999Z"]));
  });

  it("yields one invoice per boundary when the clock jumps across three of them, each with its month's usage", async () => {
    // Jan 1: acme subscribes to a 10.00 monthly plan in arrears with calls at 1.00; 2 calls in January,
    // 3 in February, 1 in March, all sent on Jan 1; then the clock jumps to Apr 1 in one call.
    const as = await story("Jump", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "starter", { amount_cents: 1_000, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "starter", "sub_1");
    await send(as, [
      ...events(2, "sub_1", "calls", "2024-01-20T00:00:00Z"),
      ...events(3, "sub_1", "calls", "2024-02-20T00:00:00Z"),
      ...events(1, "sub_1", "calls", "2024-03-20T00:00:00Z"),
    ]);
    await advanceClock(as, "2024-04-01T00:00:00Z");
    const invoices = await invoicesOf(as, "acme");
    const prefix = await numberPrefix(as);
    // each boundary bills its month: 1000 + calls of that month × 100; numbered in order
    expect(invoices.map((i) => [i.issuing_date, i.fees_amount_cents, i.number])).toEqual([
      ["2024-02-01", 1_200, `${prefix}-001-001`],
      ["2024-03-01", 1_300, `${prefix}-001-002`],
      ["2024-04-01", 1_100, `${prefix}-001-003`],
    ]);
    expect(invoices.map((i) => feeOf(i, "charge", "calls").units)).toEqual(["2.0", "3.0", "1.0"]);
  });

  it("puts every subscription a customer has billed at one boundary on one invoice", async () => {
    // Jan 1: acme subscribes to Starter (10.00) and to Storage (5.00), both monthly in arrears.
    const as = await story("Two subscriptions", "2024-01-01T00:00:00Z");
    await plan(as, "starter", { amount_cents: 1_000 });
    await plan(as, "storage", { amount_cents: 500 });
    await subscribe(as, "acme", "starter", "sub_1");
    await subscribe(as, "acme", "storage", "sub_2");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice, ...more] = await invoicesOf(as, "acme");
    expect(more).toHaveLength(0);
    // one invoice for the customer and the boundary: 1000 + 500
    expectTotals(invoice!, { fees: 1_500 });
    expect(reasons(invoice!).sort()).toEqual([
      ["sub_1", "subscription_periodic"],
      ["sub_2", "subscription_periodic"],
    ]);
    expect(
      feesOf(invoice!, "subscription")
        .map((f) => [f.external_subscription_id, f.amount_cents])
        .sort(),
    ).toEqual([
      ["sub_1", 1_000],
      ["sub_2", 500],
    ]);
  });

  it("bills a yearly plan's fee once a year and its charges every month (bill_charges_monthly)", async () => {
    // Jan 1: acme subscribes to a 1,200.00 yearly plan in advance whose calls (1.00) are billed monthly.
    // 5 calls in January, 3 in February.
    const as = await story("Yearly", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "yearly", {
      interval: "yearly",
      amount_cents: 120_000,
      pay_in_advance: true,
      bill_charges_monthly: true,
      charges: [standard(calls, "1")],
    });
    await subscribe(as, "acme", "yearly", "sub_1");
    const [starting] = await awaitInvoices(as, "acme", 1);
    // Jan 1: the whole of 2024 in advance (366/366 × 120,000)
    expectTotals(starting!, { fees: 120_000 });
    expect(span(feeOf(starting!, "subscription").from_date, feeOf(starting!, "subscription").to_date)).toEqual(
      iso(["2024-01-01T00:00:00Z", "2024-12-31T23:59:59.999Z"]),
    );

    await send(as, [
      ...events(5, "sub_1", "calls", "2024-01-10T00:00:00Z"),
      ...events(3, "sub_1", "calls", "2024-02-10T00:00:00Z"),
    ]);
    await advanceClock(as, "2024-03-01T01:00:00Z");
    const [, february, march] = await awaitInvoices(as, "acme", 3);
    // Feb 1 and Mar 1: the past month's calls only, no base fee (it is billed once a year)
    for (const [invoice, cents, month] of [
      [february!, 500, JAN],
      [march!, 300, FEB],
    ] as const) {
      expectTotals(invoice, { fees: cents });
      expect(feesOf(invoice, "subscription")).toEqual([]);
      const usage = feeOf(invoice, "charge", "calls");
      expect([usage.amount_cents, ...span(usage.from_date, usage.to_date)]).toEqual([cents, ...iso(month)]);
      expect(reasons(invoice)).toEqual([["sub_1", "subscription_periodic"]]);
    }
    expect([february!.issuing_date, march!.issuing_date]).toEqual(["2024-02-01", "2024-03-01"]);
  });

  it("starts charging an arrears plan's base fee when its trial ends; usage is billed throughout", async () => {
    // Jan 1: acme subscribes to a 31.00 monthly plan in arrears with a 10-day trial; calls at 1.00.
    // Jan 5 (in trial): 2 calls.
    const as = await story("Trial arrears", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "starter", { amount_cents: 3_100, trial_period: 10, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "starter", "sub_1");
    await send(as, events(2, "sub_1", "calls", "2024-01-05T12:00:00Z"));
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // the trial ends Jan 11 00:00 (start + 10 days): Jan 11–31 = 21 days × 3100 / 31 = 2100;
    // charges are not affected by trials: 2 × 100 = 200
    expectTotals(invoice!, { fees: 2_300 });
    expect(feeOf(invoice!, "subscription").amount_cents).toBe(2_100);
    expect(feeOf(invoice!, "charge", "calls").amount_cents).toBe(200);
  });

  it("bills a pay-in-advance plan on the day its trial ends, not when it starts", async () => {
    // Jan 1: acme subscribes to a 31.00 monthly plan in advance with a 10-day trial.
    const as = await story("Trial advance", "2024-01-01T00:00:00Z");
    await plan(as, "starter", { amount_cents: 3_100, pay_in_advance: true, trial_period: 10 });
    await subscribe(as, "acme", "starter", "sub_1");
    await advanceClock(as, "2024-01-10T23:00:00Z");
    expect(await invoicesOf(as, "acme")).toEqual([]); // nothing while the trial runs
    await advanceClock(as, "2024-01-11T01:00:00Z");
    const [starting] = await invoicesOf(as, "acme");
    // billed on the trial's end day (Lago bills it as the starting invoice): Jan 11–31 = 21 × 3100 / 31 = 2100
    expectTotals(starting!, { fees: 2_100 });
    expect(starting!.issuing_date).toBe("2024-01-11");
    expect(reasons(starting!)).toEqual([["sub_1", "subscription_starting"]]);
    await advanceClock(as, "2024-02-01T01:00:00Z");
    const [, february] = await invoicesOf(as, "acme");
    expectTotals(february!, { fees: 3_100 }); // February, whole, in advance
  });
});

describe("time zones", () => {
  it("bills at midnight in the customer's zone, across the March change to daylight saving time", async () => {
    // Feb 1 00:00 in New York (05:00 UTC): a New York customer subscribes to a 31.00 monthly plan in arrears.
    const as = await story("New York", "2024-02-01T05:00:00Z", { timezone: "America/New_York" });
    await plan(as, "starter", { amount_cents: 3_100 });
    await subscribe(as, "acme", "starter", "sub_1");
    await advanceClock(as, "2024-03-01T04:30:00Z"); // still Feb 29 in New York (EST, UTC−5)
    expect(await invoicesOf(as, "acme")).toHaveLength(0);
    await advanceClock(as, "2024-03-01T05:30:00Z");
    expect((await invoicesOf(as, "acme")).map((i) => [i.issuing_date, i.fees_amount_cents])).toEqual([
      ["2024-03-01", 3_100],
    ]);
    // daylight saving time starts on March 10: April 1 begins at 04:00 UTC (EDT, UTC−4)
    await advanceClock(as, "2024-04-01T04:30:00Z");
    const [, april] = await invoicesOf(as, "acme");
    expect(april!.issuing_date).toBe("2024-04-01");
    const base = feeOf(april!, "subscription");
    // March in New York: from 05:00 UTC on Mar 1 to 03:59:59.999 UTC on Apr 1, a whole month: 3100
    expect([base.amount_cents, ...span(base.from_date, base.to_date)]).toEqual([
      3_100,
      ...iso(["2024-03-01T05:00:00Z", "2024-04-01T03:59:59.999Z"]),
    ]);
  });

  it("counts days in the customer's zone when prorating across the October change back to standard time", async () => {
    // Oct 20 10:00 in Paris (08:00 UTC, CEST): a Paris customer subscribes to a 31.00 monthly plan in arrears.
    const as = await story("Paris", "2024-10-20T08:00:00Z", { timezone: "Europe/Paris" });
    await plan(as, "starter", { amount_cents: 3_100 });
    await subscribe(as, "acme", "starter", "sub_1");
    await advanceClock(as, "2024-10-31T22:30:00Z"); // 23:30 on Oct 31 in Paris (CET, UTC+1 since Oct 27)
    expect(await invoicesOf(as, "acme")).toHaveLength(0);
    await advanceClock(as, "2024-10-31T23:30:00Z"); // 00:30 on Nov 1 in Paris
    const [invoice] = await invoicesOf(as, "acme");
    expect(invoice!.issuing_date).toBe("2024-11-01");
    const base = feeOf(invoice!, "subscription");
    // Oct 20–31 = 12 days although 12 days and 1 hour pass (Oct 27 has 25 hours): Lago's
    // date_diff_with_timezone takes the offset change out. 12 × 3100 / 31 = 1200 (not 13 × 100)
    expect([base.amount_cents, ...span(base.from_date, base.to_date)]).toEqual([
      1_200,
      ...iso(["2024-10-19T22:00:00Z", "2024-10-31T22:59:59.999Z"]),
    ]);
    expectTotals(invoice!, { fees: 1_200 });
  });
});

describe("plan changes and termination", () => {
  it("bills a termination at once: the base fee up to the termination day and the usage so far", async () => {
    // Jan 1: acme subscribes to a 31.00 monthly plan in arrears, calls at 2.00. Jan 3: one call.
    // Jan 20 12:00: the subscription is terminated.
    const as = await story("Termination", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "starter", { amount_cents: 3_100, charges: [standard(calls, "2")] });
    await subscribe(as, "acme", "starter", "sub_1");
    await send(as, [event("sub_1", "calls", "2024-01-03T00:00:00Z")]);
    await advanceClock(as, "2024-01-20T12:00:00Z");
    const terminated = await ok(as("DELETE", "/subscriptions/sub_1"));
    expect(terminated.subscription.status).toBe("terminated");
    expect(instant(terminated.subscription.terminated_at)).toBe(instant("2024-01-20T12:00:00Z"));
    const [invoice] = await awaitInvoices(as, "acme", 1);
    // Jan 1–20 (the termination day counts) = 20 days: 20 × 3100 / 31 = 2000, plus one call at 2.00
    expectTotals(invoice!, { fees: 2_200 });
    expect(invoice!.issuing_date).toBe("2024-01-20");
    expect(reasons(invoice!)).toEqual([["sub_1", "subscription_terminating"]]);
    const base = feeOf(invoice!, "subscription");
    expect([base.amount_cents, ...span(base.from_date, base.to_date)]).toEqual([
      2_000,
      ...iso(["2024-01-01T00:00:00Z", "2024-01-20T12:00:00Z"]),
    ]);
    expect(
      span(invoice!.billing_periods[0].charges_from_datetime, invoice!.billing_periods[0].charges_to_datetime),
    ).toEqual(iso(["2024-01-01T00:00:00Z", "2024-01-20T12:00:00Z"]));
    await advanceClock(as, "2024-02-02T00:00:00Z");
    expect(await invoicesOf(as, "acme")).toHaveLength(1); // nothing more once terminated
  });

  it("upgrades at once: the old plan is billed up to the day before, the new one from the upgrade day", async () => {
    // Jan 1: acme subscribes to Basic (31.00, calls at 1.00). Jan 10: 2 calls.
    // Jan 16 12:00: upgrade to Pro (62.00, calls at 2.00). Jan 20: 3 calls.
    const as = await story("Upgrade", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    const basic = await plan(as, "basic", { amount_cents: 3_100, charges: [standard(calls, "1")] });
    const pro = await plan(as, "pro", { amount_cents: 6_200, charges: [standard(calls, "2")] });
    await subscribe(as, "acme", "basic", "sub_1");
    await send(as, events(2, "sub_1", "calls", "2024-01-10T00:00:00Z"));
    await advanceClock(as, "2024-01-16T12:00:00Z");
    await subscribe(as, "acme", "pro", "sub_1"); // the same external id with a dearer plan: an upgrade
    const [upgrade] = await awaitInvoices(as, "acme", 1);
    // Basic ends on the upgrade: Jan 1 → Jan 16 12:00 is 16 days, less the upgrade day = 15 × 100 = 1500;
    // its usage: 2 calls × 1.00 = 200
    expectTotals(upgrade!, { fees: 1_700 });
    expect(upgrade!.issuing_date).toBe("2024-01-16");
    expect(reasons(upgrade!)).toEqual([["sub_1", "subscription_terminating"]]);
    expect(upgrade!.billing_periods[0].svc_plan_id).toBe(basic.svc_id);
    expect(feeOf(upgrade!, "subscription").amount_cents).toBe(1_500);
    expect(feeOf(upgrade!, "charge", "calls")).toMatchObject({ amount_cents: 200, units: "2.0" });
    expect((await ok(as("GET", "/subscriptions/sub_1"))).subscription).toMatchObject({
      plan_code: "pro",
      status: "active",
    });

    await send(as, events(3, "sub_1", "calls", "2024-01-20T00:00:00Z"));
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [, february] = await awaitInvoices(as, "acme", 2);
    // Pro from the upgrade day: Jan 16–31 = 16 × 6200 / 31 = 3200; its usage from the upgrade on
    // (January's first 2 calls were billed with Basic): 3 × 2.00 = 600
    expectTotals(february!, { fees: 3_800 });
    expect(february!.billing_periods[0]).toMatchObject({
      svc_plan_id: pro.svc_id,
      invoicing_reason: "subscription_periodic",
    });
    const base = feeOf(february!, "subscription");
    expect([base.amount_cents, ...span(base.from_date, base.to_date)]).toEqual([
      3_200,
      ...iso(["2024-01-16T00:00:00Z", JAN[1]!]),
    ]);
    const usage = feeOf(february!, "charge", "calls");
    expect([usage.amount_cents, usage.units, ...span(usage.from_date, usage.to_date)]).toEqual([
      600,
      "3.0",
      ...iso(["2024-01-16T12:00:00Z", JAN[1]!]),
    ]);
  });

  it("downgrades at the period's end, and the new plan is in force before that boundary is billed, even in one jump", async () => {
    // Jan 1: acme subscribes to Pro (62.00, calls at 2.00). Jan 16: downgrade to Basic (31.00, calls at 1.00).
    // Jan 20: 1 call. Feb 10: 4 calls. Then the clock jumps from Jan 16 to Mar 1 in one call.
    const as = await story("Downgrade", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    const pro = await plan(as, "pro", { amount_cents: 6_200, charges: [standard(calls, "2")] });
    const basic = await plan(as, "basic", { amount_cents: 3_100, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "pro", "sub_1");
    await advanceClock(as, "2024-01-16T12:00:00Z");
    await subscribe(as, "acme", "basic", "sub_1"); // a cheaper plan: scheduled for the next boundary
    // Pro stays in force until the end of January; Basic waits, pending, for Feb 1
    expect((await ok(as("GET", "/subscriptions/sub_1"))).subscription).toMatchObject({
      plan_code: "pro",
      status: "active",
      next_plan_code: "basic",
      downgrade_plan_date: "2024-02-01",
    });
    expect((await ok(as("GET", "/subscriptions/sub_1?status=pending"))).subscription).toMatchObject({
      plan_code: "basic",
      status: "pending",
    });
    await send(as, [
      event("sub_1", "calls", "2024-01-20T00:00:00Z"),
      ...events(4, "sub_1", "calls", "2024-02-10T00:00:00Z"),
    ]);
    expect(await invoicesOf(as, "acme")).toEqual([]); // a downgrade bills nothing by itself

    await advanceClock(as, "2024-03-01T00:30:00Z");
    const [february, march, ...more] = await invoicesOf(as, "acme");
    expect(more).toHaveLength(0);
    // Feb 1: Pro ends with its whole January (6200) and its call (200); as in Lago, the subscription
    // is terminated at the boundary and billed as terminating
    expectTotals(february!, { fees: 6_400 });
    expect(february!.billing_periods[0]).toMatchObject({
      svc_plan_id: pro.svc_id,
      invoicing_reason: "subscription_terminating",
    });
    expect(feeOf(february!, "subscription").amount_cents).toBe(6_200);
    // Mar 1: Basic, in force since Feb 1, bills the whole of February (3100) and its 4 calls at 1.00 (400)
    expectTotals(march!, { fees: 3_500 });
    expect(march!.billing_periods[0]).toMatchObject({
      svc_plan_id: basic.svc_id,
      invoicing_reason: "subscription_periodic",
    });
    const base = feeOf(march!, "subscription");
    expect([base.amount_cents, ...span(base.from_date, base.to_date)]).toEqual([3_100, ...iso(FEB)]);
    expect(feeOf(march!, "charge", "calls")).toMatchObject({ amount_cents: 400, units: "4.0" });
    expect((await ok(as("GET", "/subscriptions/sub_1"))).subscription).toMatchObject({
      plan_code: "basic",
      status: "active",
    });
  });
});
