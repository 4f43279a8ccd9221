import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  addOn,
  awaitInvoices,
  event,
  events,
  expectTotals,
  feeOf,
  feesOf,
  invoicesOf,
  metric,
  plan,
  reasons,
  send,
  span,
  standard,
  subscribe,
  type Api,
  type Json,
} from "../../support/scenario";

// Usage charges, spending minimums, minimum commitments and fixed charges (billing-rules §1, §3),
// each on its own sandbox organization. Unless said otherwise: acme (EUR, UTC) subscribes on Jan 1
// 2024 to a monthly calendar plan in arrears with no base fee, uses it in January, and the clock
// moves to Feb 1 00:30, when January is billed.
const platform = scenarioPlatform("scn_charges");
const story = (name: string, at = "2024-01-01T00:00:00Z") => platform.story(name, at);

/** A plan with no base fee and these charges, acme subscribed to it (sub_1) on the story's day. */
async function usagePlan(as: Api, charges: Json[], fields: Json = {}): Promise<void> {
  await plan(as, "usage", { amount_cents: 0, charges, ...fields });
  await subscribe(as, "acme", "usage", "sub_1");
}

/** January's invoice: the clock moves to Feb 1 00:30 and acme has exactly one invoice. */
async function januaryInvoice(as: Api): Promise<Json> {
  await advanceClock(as, "2024-02-01T00:30:00Z");
  const [invoice, ...more] = await invoicesOf(as, "acme");
  expect(more).toHaveLength(0);
  expect(reasons(invoice!)).toEqual([["sub_1", "subscription_periodic"]]);
  return invoice!;
}

const JAN = ["2024-01-01T00:00:00.000Z", "2024-01-31T23:59:59.999Z"];

describe("charge models", () => {
  it("prices graduated usage tier by tier, each reached tier's flat fee included", async () => {
    // calls: 0–10 at 1.00 + 2.00 flat, 11 and up at 0.50 + 3.00 flat. January: 15 calls.
    const as = await story("Graduated");
    const calls = await metric(as, "calls");
    await usagePlan(as, [
      {
        billable_metric_id: calls,
        charge_model: "graduated",
        properties: {
          graduated_ranges: [
            { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "2" },
            { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "3" },
          ],
        },
      },
    ]);
    await send(as, events(15, "sub_1", "calls", "2024-01-20T00:00:00Z"));
    const invoice = await januaryInvoice(as);
    // tier 1: 10 × 1.00 + 2.00 = 12.00; tier 2: 5 × 0.50 + 3.00 = 5.50; 17.50
    const fee = feeOf(invoice, "charge", "calls");
    expect(fee).toMatchObject({ amount_cents: 1_750, units: "15.0", events_count: 15 });
    expect(span(fee.from_date, fee.to_date)).toEqual(JAN);
    expectTotals(invoice, { fees: 1_750 });
  });

  it("prices package usage by started packages after the free units", async () => {
    // storage (sum of gb): 5.00 per package of 100 gb, the first 50 gb free. January: 120 + 200 + 100 gb.
    const as = await story("Package");
    const storage = await metric(as, "storage", { aggregation_type: "sum_agg", field_name: "gb" });
    await usagePlan(as, [
      {
        billable_metric_id: storage,
        charge_model: "package",
        properties: { amount: "5", package_size: 100, free_units: 50 },
      },
    ]);
    await send(
      as,
      [120, 200, 100].map((gb, i) => event("sub_1", "storage", `2024-01-0${i + 2}T00:00:00Z`, { gb })),
    );
    const invoice = await januaryInvoice(as);
    // 420 gb − 50 free = 370 paid; a started package is charged in full: ceil(370 / 100) = 4 × 5.00 = 20.00
    expect(feeOf(invoice, "charge", "storage")).toMatchObject({ amount_cents: 2_000, units: "420.0", events_count: 3 });
    expectTotals(invoice, { fees: 2_000 });
  });

  it("prices a percentage of transaction amounts, after free events, with a fixed fee per paid event", async () => {
    // payments (sum of amount): 2.5 % + 0.30 per transaction, the first 2 transactions free.
    // January: transactions of 100, 200, 50.50 and 1000.
    const as = await story("Percentage");
    const payments = await metric(as, "payments", { aggregation_type: "sum_agg", field_name: "amount" });
    await usagePlan(as, [
      {
        billable_metric_id: payments,
        charge_model: "percentage",
        properties: { rate: "2.5", fixed_amount: "0.3", free_units_per_events: 2 },
      },
    ]);
    await send(
      as,
      [100, 200, 50.5, 1000].map((amount, i) => event("sub_1", "payments", `2024-01-0${i + 5}T00:00:00Z`, { amount })),
    );
    const invoice = await januaryInvoice(as);
    // units 1350.5; the first 2 events are free: 300 free units; (1350.5 − 300) × 2.5 % = 26.2625;
    // fixed fee on the 2 paid events: 2 × 0.30 = 0.60; 26.8625 rounded to the cent = 26.86
    expect(feeOf(invoice, "charge", "payments")).toMatchObject({
      amount_cents: 2_686,
      units: "1350.5",
      events_count: 4,
    });
    expectTotals(invoice, { fees: 2_686 });
  });

  it("prices all volume units at the price of the tier the total falls in", async () => {
    // gpu (sum of hours): 0–100 hours at 1.00, 101 and up at 0.80 + 10.00 flat. January: 100 + 50 hours.
    const as = await story("Volume");
    const gpu = await metric(as, "gpu", { aggregation_type: "sum_agg", field_name: "hours" });
    await usagePlan(as, [
      {
        billable_metric_id: gpu,
        charge_model: "volume",
        properties: {
          volume_ranges: [
            { from_value: 0, to_value: 100, per_unit_amount: "1", flat_amount: "0" },
            { from_value: 101, to_value: null, per_unit_amount: "0.8", flat_amount: "10" },
          ],
        },
      },
    ]);
    await send(as, [
      event("sub_1", "gpu", "2024-01-10T00:00:00Z", { hours: 100 }),
      event("sub_1", "gpu", "2024-01-11T00:00:00Z", { hours: 50 }),
    ]);
    const invoice = await januaryInvoice(as);
    // 150 hours fall in the second tier: 150 × 0.80 + 10.00 = 130.00 (graduated would give 150.00)
    expect(feeOf(invoice, "charge", "gpu")).toMatchObject({ amount_cents: 13_000, units: "150.0" });
    expectTotals(invoice, { fees: 13_000 });
  });

  it("bills one fee per charge filter and one for the events no filter matches", async () => {
    // requests (count), filter key region ∈ {eu, us, asia}: 0.10 a request, 1.00 in Europe, 2.00 in the US.
    // January: 3 eu, 2 us, 4 asia and 1 request without a region.
    const as = await story("Filters");
    const requests = await metric(as, "requests", { filters: [{ key: "region", values: ["eu", "us", "asia"] }] });
    await usagePlan(as, [
      standard(requests, "0.1", {
        filters: [
          { invoice_display_name: "Europe", values: { region: ["eu"] }, properties: { amount: "1" } },
          { invoice_display_name: "Americas", values: { region: ["us"] }, properties: { amount: "2" } },
        ],
      }),
    ]);
    const at = "2024-01-15T00:00:00Z";
    await send(as, [
      ...events(3, "sub_1", "requests", at, { region: "eu" }),
      ...events(2, "sub_1", "requests", at, { region: "us" }),
      ...events(4, "sub_1", "requests", at, { region: "asia" }),
      event("sub_1", "requests", at),
    ]);
    const invoice = await januaryInvoice(as);
    const fees = feesOf(invoice, "charge");
    const byFilter = (name: string | null) => fees.find((f) => (f.item.filter_invoice_display_name ?? null) === name);
    // Europe: 3 × 1.00 = 300; Americas: 2 × 2.00 = 400
    expect(byFilter("Europe")).toMatchObject({
      amount_cents: 300,
      units: "3.0",
      item: { filters: { region: ["eu"] } },
    });
    expect(byFilter("Americas")).toMatchObject({
      amount_cents: 400,
      units: "2.0",
      item: { filters: { region: ["us"] } },
    });
    // no filter matched (4 asia + 1 without region), priced with the charge's own 0.10: 5 × 0.10 = 50
    expect(byFilter(null)).toMatchObject({ amount_cents: 50, units: "5.0", svc_charge_filter_id: null });
    expect(fees).toHaveLength(3);
    expectTotals(invoice, { fees: 750 });
  });

  it("prices each pricing group on its own, tiers starting again per group", async () => {
    // compute (sum of hours), grouped by cloud: graduated, 0–5 hours at 1.00, 6 and up at 0.50.
    // January: aws 3 + 5 hours, gcp 3 hours.
    const as = await story("Pricing groups");
    const compute = await metric(as, "compute", { aggregation_type: "sum_agg", field_name: "hours" });
    await usagePlan(as, [
      {
        billable_metric_id: compute,
        charge_model: "graduated",
        properties: {
          pricing_group_keys: ["cloud"],
          graduated_ranges: [
            { from_value: 0, to_value: 5, per_unit_amount: "1", flat_amount: "0" },
            { from_value: 6, to_value: null, per_unit_amount: "0.5", flat_amount: "0" },
          ],
        },
      },
    ]);
    await send(as, [
      event("sub_1", "compute", "2024-01-10T00:00:00Z", { cloud: "aws", hours: 3 }),
      event("sub_1", "compute", "2024-01-11T00:00:00Z", { cloud: "aws", hours: 5 }),
      event("sub_1", "compute", "2024-01-12T00:00:00Z", { cloud: "gcp", hours: 3 }),
    ]);
    const invoice = await januaryInvoice(as);
    const fees = feesOf(invoice, "charge");
    const group = (cloud: string) => fees.find((f) => f.item.grouped_by?.cloud === cloud);
    // aws: 5 × 1.00 + 3 × 0.50 = 6.50; gcp: 3 × 1.00 = 3.00 (one group of 11 hours would cost 8.00)
    expect(group("aws")).toMatchObject({ amount_cents: 650, units: "8.0", item: { grouped_by: { cloud: "aws" } } });
    expect(group("gcp")).toMatchObject({ amount_cents: 300, units: "3.0", item: { grouped_by: { cloud: "gcp" } } });
    expect(fees).toHaveLength(2);
    expectTotals(invoice, { fees: 950 });
  });
});

describe("minimums", () => {
  it("tops a charge up to its prorated spending minimum with a true-up fee", async () => {
    // Jan 15 09:00: acme subscribes; calls at 1.00 with a 10.00 monthly minimum (min_amount_cents). 3 calls.
    const as = await story("Spending minimum", "2024-01-15T09:00:00Z");
    const calls = await metric(as, "calls");
    await usagePlan(as, [standard(calls, "1", { min_amount_cents: 1_000 })]);
    await send(as, events(3, "sub_1", "calls", "2024-01-20T00:00:00Z"));
    const invoice = await januaryInvoice(as);
    const fees = feesOf(invoice, "charge");
    expect(fees).toHaveLength(2);
    const fee = fees.find((f) => !f.svc_true_up_parent_fee_id);
    const trueUp = fees.find((f) => f.svc_true_up_parent_fee_id);
    // the usage: 3 × 1.00 = 300, charged from the subscription's start (Jan 15 09:00) to the period's end
    expect(fee).toMatchObject({ amount_cents: 300, units: "3.0", events_count: 3, svc_true_up_parent_fee_id: null });
    expect(span(fee!.from_date, fee!.to_date)).toEqual(["2024-01-15T09:00:00.000Z", JAN[1]]);
    // the minimum prorated to the 17 billed days of 31: 1000 / 31 × 17 = 548.39; true-up round(548.39 − 300) = 248
    expect(trueUp).toMatchObject({
      amount_cents: 248,
      units: "1.0",
      events_count: 0,
      svc_charge_filter_id: null,
      svc_true_up_parent_fee_id: fee!.svc_id,
    });
    expect(fee!.svc_true_up_fee_id).toBe(trueUp!.svc_id);
    expectTotals(invoice, { fees: 548 });
  });

  it("tops a month up to the plan's minimum commitment, and not a month above it", async () => {
    // Jan 1: acme subscribes to a 10.00 monthly plan, calls at 1.00, with a 50.00 minimum commitment.
    // January: 15 calls; February: 50 calls. The clock jumps to Mar 1.
    const as = await story("Minimum commitment");
    const calls = await metric(as, "calls");
    await plan(as, "committed", {
      amount_cents: 1_000,
      minimum_commitment: { amount_cents: 5_000 },
      charges: [standard(calls, "1")],
    });
    await subscribe(as, "acme", "committed", "sub_1");
    await send(as, [
      ...events(15, "sub_1", "calls", "2024-01-10T00:00:00Z"),
      ...events(50, "sub_1", "calls", "2024-02-10T00:00:00Z"),
    ]);
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const [january, february] = await invoicesOf(as, "acme");
    // January: 1000 base + 1500 usage = 2500 < 5000: a commitment true-up of 2500 (Lago's fee type
    // "commitment", named "Minimum commitment" when the commitment has no display name)
    expect(feeOf(january!, "commitment")).toMatchObject({
      amount_cents: 2_500,
      units: "1.0",
      item: { type: "commitment", invoice_display_name: "Minimum commitment" },
    });
    expectTotals(january!, { fees: 5_000 });
    // February: 1000 + 5000 = 6000 ≥ 5000: no true-up
    expect(feesOf(february!, "commitment")).toEqual([]);
    expectTotals(february!, { fees: 6_000 });
  });
});

describe("fixed charges", () => {
  it("bills prorated fixed charges: in advance at the start, in arrears at the period's end", async () => {
    // Jan 15 09:00: acme subscribes to Team (no base fee) with two fixed charges, both prorated:
    // Seats, 3 units at 10.00, in arrears; Support, 1 unit at 31.00, in advance.
    const as = await story("Fixed charges", "2024-01-15T09:00:00Z");
    const seats = await addOn(as, "seats", "Seats", 1_000);
    const support = await addOn(as, "support", "Support", 3_100);
    await plan(as, "team", {
      amount_cents: 0,
      fixed_charges: [
        {
          add_on_id: seats,
          charge_model: "standard",
          units: 3,
          prorated: true,
          pay_in_advance: false,
          properties: { amount: "10" },
        },
        {
          add_on_id: support,
          charge_model: "standard",
          units: 1,
          prorated: true,
          pay_in_advance: true,
          properties: { amount: "31" },
        },
      ],
    });
    await subscribe(as, "acme", "team", "sub_1");
    // at once: Support for Jan 15–31 in advance, 17 days of 31: 3100 × 17 / 31 = 1700 (Lago issues it as
    // an in_advance_charge invoice)
    const [start] = await awaitInvoices(as, "acme", 1);
    expect(feeOf(start!, "fixed_charge", "support")).toMatchObject({
      amount_cents: 1_700,
      units: "1.0",
      item: { invoice_display_name: "Support" },
    });
    expect(feesOf(start!, "fixed_charge")).toHaveLength(1);
    expect(reasons(start!)).toEqual([["sub_1", "in_advance_charge"]]);
    expectTotals(start!, { fees: 1_700 });

    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [, february] = await awaitInvoices(as, "acme", 2);
    // Feb 1: Seats for Jan 15–31 in arrears: 3 × 10.00 × 17 / 31 = 16.45 (units show the 3 seats);
    // Support for February in advance, whole: 31.00
    const seatsFee = feeOf(february!, "fixed_charge", "seats");
    expect(seatsFee).toMatchObject({ amount_cents: 1_645, units: "3.0", item: { invoice_display_name: "Seats" } });
    expect(span(seatsFee.from_date, seatsFee.to_date)).toEqual(["2024-01-15T09:00:00.000Z", JAN[1]]);
    const supportFee = feeOf(february!, "fixed_charge", "support");
    expect(supportFee).toMatchObject({ amount_cents: 3_100, units: "1.0" });
    expect(span(supportFee.from_date, supportFee.to_date)).toEqual([
      "2024-02-01T00:00:00.000Z",
      "2024-02-29T23:59:59.999Z",
    ]);
    expectTotals(february!, { fees: 4_745 });
  });
});
