import { describe, expect, it, vi } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  event,
  invoicesOf,
  metric,
  ok,
  plan,
  send,
  span,
  subscribe,
  type Api,
  type Json,
} from "../../support/scenario";

/**
 * Waits until the customer's progressive invoices number `count`: the usage service announces
 * stored events in the background, and the threshold check runs at the time the envelope carries;
 * a clock advanced before that check would bill the crossing on the new day instead.
 */
const progressiveInvoices = (as: Api, count: number) =>
  vi.waitFor(
    async () => {
      const invoices = await invoicesOf(as, "acme");
      expect(invoices.filter((i) => i.invoice_type === "progressive_billing")).toHaveLength(count);
    },
    { timeout: 20_000, interval: 200 },
  );

// Progressive billing (billing-rules §5, §3 step 2), with Lago's numbers from
// spec/scenarios/invoices/progressive_billing_spec.rb: a monthly plan in arrears (31.00 base fee)
// with one sum_agg charge at 0.0002 per unit; acme (EUR, UTC) subscribes on Jan 1 2024. Usage is
// sent at a day's start, then the clock moves on (a step waits for the invoicing service's
// consumers: every threshold check of the usage sent is done when it returns).
const platform = scenarioPlatform("scn_progressive");

/** The story's plan (with these usage thresholds) and acme subscribed to it as sub_1. */
async function progressivePlan(as: Api, thresholds: Json[]): Promise<void> {
  const total = await metric(as, "compute", { aggregation_type: "sum_agg", field_name: "total" });
  await plan(as, "progressive", {
    amount_cents: 3_100,
    charges: [{ billable_metric_id: total, charge_model: "standard", properties: { amount: "0.0002" } }],
    usage_thresholds: thresholds,
  });
  await subscribe(as, "acme", "progressive", "sub_1");
}

/** `units` of usage on `day` (an ISO day of 2024), then the clock moves to that day's noon. */
async function use(as: Api, day: string, units: number): Promise<void> {
  await advanceClock(as, `${day}T00:00:00Z`);
  await send(as, [event("sub_1", "compute", `${day}T00:00:00Z`, { total: units })]);
  await advanceClock(as, `${day}T12:00:00Z`);
}

/** The amounts a progressive invoice's pipeline gives (no coupons, taxes, credit notes nor wallets here). */
function amounts(invoice: Json) {
  return {
    invoice_type: invoice.invoice_type,
    status: invoice.status,
    fees_amount_cents: invoice.fees_amount_cents,
    progressive_billing_credit_amount_cents: invoice.progressive_billing_credit_amount_cents,
    sub_total_excluding_taxes_amount_cents: invoice.sub_total_excluding_taxes_amount_cents,
    total_amount_cents: invoice.total_amount_cents,
  };
}

const progressive = (fees: number, credit: number) => ({
  invoice_type: "progressive_billing",
  status: "finalized",
  fees_amount_cents: fees,
  progressive_billing_credit_amount_cents: credit,
  sub_total_excluding_taxes_amount_cents: fees - credit,
  total_amount_cents: fees - credit,
});

describe("progressive billing", () => {
  it("bills each crossed threshold at once, then credits everything billed on the period's invoice (fixed and recurring thresholds)", async () => {
    // Lago's "combination of single thresholds and recurring": 2.00, 5.00, 7.00 and 10.00 recurring;
    // 11 000 units = 2.20, 110 000 units = 22.00.
    const as = await platform.story("Fixed and recurring thresholds", "2024-01-01T00:00:00Z");
    await progressivePlan(as, [
      { amount_cents: 200, threshold_display_name: "first" },
      { amount_cents: 500 },
      { amount_cents: 700 },
      { amount_cents: 1_000, recurring: true },
    ]);

    await use(as, "2024-01-06", 11_000); // 2.20 crosses 2.00
    let invoices = await invoicesOf(as, "acme");
    expect(invoices.map(amounts)).toEqual([progressive(220, 0)]);
    const [first] = invoices;
    expect(first!.applied_usage_thresholds).toEqual([
      {
        lifetime_usage_amount_cents: 220,
        created_at: expect.any(String),
        usage_threshold: expect.objectContaining({
          amount_cents: 200,
          recurring: false,
          threshold_display_name: "first",
        }),
      },
    ]);
    // period-to-date in-arrears charges only: no base fee
    expect(first!.fees.map((f: Json) => [f.item.type, f.item.code, f.amount_cents, f.units])).toEqual([
      ["charge", "compute", 220, "11000.0"],
    ]);
    expect(first!.billing_periods).toEqual([
      expect.objectContaining({ external_subscription_id: "sub_1", invoicing_reason: "progressive_billing" }),
    ]);
    expect(first!.issuing_date).toBe("2024-01-06");

    await use(as, "2024-01-11", 11_000); // 4.40: no new threshold
    expect(await invoicesOf(as, "acme")).toHaveLength(1);

    await use(as, "2024-01-16", 11_000); // 6.60 crosses 5.00: 6.60 billed, 2.20 credited
    await use(as, "2024-01-21", 11_000); // 8.80 crosses 7.00
    await use(as, "2024-01-26", 110_000); // 30.80: every fixed threshold passed, the recurring one crossed
    await use(as, "2024-01-28", 110_000); // 52.80: again
    invoices = await invoicesOf(as, "acme");
    expect(invoices.map(amounts)).toEqual([
      progressive(220, 0),
      progressive(660, 220),
      progressive(880, 660),
      progressive(3_080, 880),
      progressive(5_280, 3_080),
    ]);
    expect(invoices.map((i) => i.applied_usage_thresholds.map((a: Json) => a.usage_threshold.amount_cents))).toEqual([
      [200],
      [500],
      [700],
      [1_000],
      [1_000],
    ]);
    expect(invoices.map((i) => i.total_amount_cents)).toEqual([220, 440, 220, 2_200, 2_200]); // Lago's totals
    // each is numbered as any finalized invoice
    expect(new Set(invoices.map((i) => i.number)).size).toBe(5);

    // Feb 1: January's invoice bills 31.00 + 52.80 and subtracts the 52.80 billed progressively
    await advanceClock(as, "2024-02-01T00:30:00Z");
    invoices = await invoicesOf(as, "acme");
    expect(invoices).toHaveLength(6);
    const january = invoices[5]!;
    expect(january.invoice_type).toBe("subscription");
    expect({
      fees: january.fees_amount_cents,
      credit: january.progressive_billing_credit_amount_cents,
      sub_total: january.sub_total_excluding_taxes_amount_cents,
      total: january.total_amount_cents,
    }).toEqual({ fees: 3_100 + 5_280, credit: 5_280, sub_total: 3_100, total: 3_100 });
    expect(january.applied_usage_thresholds).toEqual([]);

    // February: 22.00 more; 52.80 invoiced so far, so the recurring threshold is crossed again (2.80 + 22.00 ≥ 10.00)
    await use(as, "2024-02-06", 110_000);
    invoices = await invoicesOf(as, "acme");
    expect(invoices).toHaveLength(7);
    expect(amounts(invoices[6]!)).toEqual(progressive(2_200, 0));

    // the lifetime usage: 52.80 invoiced (January's invoice), 22.00 this period
    const { lifetime_usage: lifetime } = await ok(as("GET", "/subscriptions/sub_1/lifetime_usage"));
    expect(lifetime).toMatchObject({
      external_subscription_id: "sub_1",
      external_historical_usage_amount_cents: 0,
      invoiced_usage_amount_cents: 5_280,
      current_usage_amount_cents: 2_200,
    });
    // from the subscription's start to now (the organization's time)
    expect(span(lifetime.from_datetime, lifetime.to_datetime)).toEqual([
      "2024-01-01T00:00:00.000Z",
      "2024-02-06T12:00:00.000Z",
    ]);
    // 74.80 in all: 2.00, 5.00, 7.00 passed; recurring steps 17.00 … 67.00 passed; 77.00 at 0.78
    expect(
      lifetime.usage_thresholds.map((t: Json) => [t.amount_cents, t.completion_ratio, t.reached_at !== null]),
    ).toEqual([
      [200, 1, true],
      [500, 1, true],
      [700, 1, true],
      [1_700, 1, true],
      [2_700, 1, true],
      [3_700, 1, true],
      [4_700, 1, true],
      [5_700, 1, true],
      [6_700, 1, true],
      [7_700, 0.78, false],
    ]);
  }, 240_000);

  it("credits the progressive invoice on a termination invoice", async () => {
    // Lago's "terminates the subscription before the end of the month": one threshold of 200.00;
    // 1 000 000 units on Dec 16 = 200.00, billed at once; terminated on Dec 18.
    const as = await platform.story("Termination", "2022-12-01T00:00:00Z");
    await progressivePlan(as, [{ amount_cents: 20_000 }]);
    await advanceClock(as, "2022-12-16T00:00:00Z");
    await send(as, [event("sub_1", "compute", "2022-12-16T00:00:00Z", { total: 1_000_000 })]);
    await progressiveInvoices(as, 1);
    await advanceClock(as, "2022-12-18T00:00:00Z");
    let invoices = await invoicesOf(as, "acme");
    expect(invoices.map(amounts)).toEqual([progressive(20_000, 0)]);

    await ok(as("DELETE", "/subscriptions/sub_1"));
    await advanceClock(as, "2022-12-18T00:01:00Z");
    invoices = await invoicesOf(as, "acme");
    expect(invoices).toHaveLength(2);
    const termination = invoices[1]!;
    // Lago: fees 218.00 (18 days of 31.00 and the 200.00 of usage), 200.00 credited, 18.00 due
    expect({
      fees: termination.fees_amount_cents,
      credit: termination.progressive_billing_credit_amount_cents,
      total: termination.total_amount_cents,
    }).toEqual({ fees: 21_800, credit: 20_000, total: 1_800 });
  }, 120_000);

  it("credits the progressive invoice on an upgrade's invoice", async () => {
    // Lago's "upgrades the subscription before the end of the month": on Dec 18 sub_1 moves to a
    // 620.00 plan in arrears; the old plan's invoice bills Dec 1–17 and its 200.00 of usage.
    const as = await platform.story("Upgrade", "2022-12-01T00:00:00Z");
    await progressivePlan(as, [{ amount_cents: 20_000 }]);
    await plan(as, "bigger", { amount_cents: 62_000 });
    await advanceClock(as, "2022-12-16T00:00:00Z");
    await send(as, [event("sub_1", "compute", "2022-12-16T00:00:00Z", { total: 1_000_000 })]);
    await progressiveInvoices(as, 1);
    await advanceClock(as, "2022-12-18T00:00:00Z");
    await subscribe(as, "acme", "bigger", "sub_1");
    await advanceClock(as, "2022-12-18T00:01:00Z");
    const invoices = await invoicesOf(as, "acme");
    expect(invoices.map((i) => i.invoice_type)).toEqual(["progressive_billing", "subscription"]);
    const upgrade = invoices[1]!;
    expect(upgrade.billing_periods.map((p: Json) => p.invoicing_reason)).toEqual(["subscription_terminating"]);
    expect({
      fees: upgrade.fees_amount_cents,
      credit: upgrade.progressive_billing_credit_amount_cents,
      total: upgrade.total_amount_cents,
    }).toEqual({ fees: 21_700, credit: 20_000, total: 1_700 });
  }, 120_000);

  it("shows the credit on the period's draft during its grace period, and keeps it on refresh", async () => {
    // Lago's "with grace period enabled": 200.00 billed progressively on Dec 6; 400.00 of usage
    // in December; the draft of Jan 1 bills 431.00 and credits 200.00.
    const as = await platform.story("Grace period", "2022-12-01T00:00:00Z", {
      billing_configuration: { invoice_grace_period: 2 },
    });
    await progressivePlan(as, [{ amount_cents: 20_000 }]);
    await advanceClock(as, "2022-12-06T00:00:00Z");
    await send(as, [event("sub_1", "compute", "2022-12-06T00:00:00Z", { total: 1_000_000 })]);
    await progressiveInvoices(as, 1);
    await advanceClock(as, "2022-12-16T00:00:00Z");
    await send(as, [event("sub_1", "compute", "2022-12-16T00:00:00Z", { total: 1_000_000 })]);
    await advanceClock(as, "2023-01-01T00:30:00Z");
    const invoices = await invoicesOf(as, "acme");
    expect(invoices.map((i) => [i.invoice_type, i.status, i.total_amount_cents])).toEqual([
      ["progressive_billing", "finalized", 20_000],
      ["subscription", "draft", 23_100],
    ]);
    const draft = invoices[1]!;
    expect({ fees: draft.fees_amount_cents, credit: draft.progressive_billing_credit_amount_cents }).toEqual({
      fees: 43_100,
      credit: 20_000,
    });
    const { invoice: refreshed } = await ok(as("PUT", `/invoices/${draft.svc_id}/refresh`));
    expect({
      status: refreshed.status,
      fees: refreshed.fees_amount_cents,
      credit: refreshed.progressive_billing_credit_amount_cents,
      total: refreshed.total_amount_cents,
    }).toEqual({ status: "draft", fees: 43_100, credit: 20_000, total: 23_100 });
  }, 120_000);

  it("counts the imported historical usage toward the thresholds (PUT lifetime_usage)", async () => {
    const as = await platform.story("Historical usage", "2024-01-01T00:00:00Z");
    await progressivePlan(as, [{ amount_cents: 20_000 }]);
    const put = await ok(
      as("PUT", "/subscriptions/sub_1/lifetime_usage", {
        lifetime_usage: { external_historical_usage_amount_cents: 19_000 },
      }),
    );
    expect(put.lifetime_usage).toMatchObject({
      external_historical_usage_amount_cents: 19_000,
      invoiced_usage_amount_cents: 0,
      current_usage_amount_cents: 0,
    });
    expect(put.lifetime_usage.usage_thresholds).toEqual([
      { amount_cents: 20_000, completion_ratio: 0.95, reached_at: null },
    ]);

    const bad = await as("PUT", "/subscriptions/sub_1/lifetime_usage", {
      lifetime_usage: { external_historical_usage_amount_cents: -1 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      code: "validation_errors",
      error_details: { external_historical_usage_amount_cents: expect.any(Array) },
    });
    const unknown = await as("GET", "/subscriptions/nope/lifetime_usage");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "lifetime_usage_not_found" });

    // 10.00 of usage: 190.00 + 10.00 reaches 200.00
    await use(as, "2024-01-10", 50_000);
    const invoices = await invoicesOf(as, "acme");
    expect(invoices.map(amounts)).toEqual([progressive(1_000, 0)]);
    expect(invoices[0]!.applied_usage_thresholds[0].lifetime_usage_amount_cents).toBe(20_000);
  }, 120_000);
});
