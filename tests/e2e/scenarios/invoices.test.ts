import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  applyCoupon,
  coupon,
  customer,
  event,
  events,
  expectTotals,
  feeOf,
  instant,
  invoicesOf,
  metric,
  numberPrefix,
  ok,
  plan,
  send,
  span,
  standard,
  subscribe,
  tax,
  type Api,
  type Json,
} from "../../support/scenario";

// Invoice stories on sandbox organizations: taxes and coupons (billing-rules §3), drafts and
// finalization, numbering, issuing dates and zero-amount invoices (§4), and the usage endpoints.
// Each story has its own organization (frozen on Jan 1 2024) and customer acme; amounts in cents,
// EUR; "calls" is a count_agg metric.
const platform = scenarioPlatform("scn_invoices");
const story = (name: string, customerFields: Json = {}) => platform.story(name, "2024-01-01T00:00:00Z", customerFields);

/** Starter: 100.00 a month in arrears and calls at 0.50, with these plan fields; acme subscribed (sub_1); 7 calls on Jan 20. */
async function starterWithSevenCalls(as: Api, fields: Json = {}): Promise<void> {
  const calls = await metric(as, "calls");
  await plan(as, "starter", { amount_cents: 10_000, charges: [standard(calls, "0.5")], ...fields });
  await subscribe(as, "acme", "starter", "sub_1");
  await send(as, events(7, "sub_1", "calls", "2024-01-20T00:00:00Z"));
}

/** The applied coupons of acme with that status. */
async function appliedCoupons(as: Api, status: "active" | "terminated"): Promise<Json[]> {
  return (await ok(as("GET", `/applied_coupons?external_customer_id=acme&status=${status}`))).applied_coupons as Json[];
}

const notFound = (code: string) => ({ status: 404, body: { status: 404, error: "Not Found", code } });

describe("taxes", () => {
  it("applies the plan's tax to every fee of the plan", async () => {
    // Starter with VAT 20 %; January: 7 calls.
    const as = await story("Plan tax");
    await tax(as, "vat", "20");
    await starterWithSevenCalls(as, { tax_codes: ["vat"] });
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // fees 10,000 + 350; 20 % of each: 2000 + 70 = 2070; total 12,420
    expectTotals(invoice!, { fees: 10_350, taxes: 2_070 });
    expect(feeOf(invoice!, "subscription")).toMatchObject({
      taxes_amount_cents: 2_000,
      taxes_rate: 20,
      total_amount_cents: 12_000,
    });
    expect(feeOf(invoice!, "charge", "calls")).toMatchObject({ taxes_amount_cents: 70, total_amount_cents: 420 });
    expect(invoice!.applied_taxes).toEqual([
      expect.objectContaining({ tax_code: "vat", tax_rate: 20, amount_cents: 2_070, fees_amount_cents: 10_350 }),
    ]);
  });

  it("rounds the invoice's taxes once, on the sum of the unrounded fee taxes", async () => {
    // acme pays a 5.5 % tax (customer tax; the plan has none). A plan with no base fee: calls and sms
    // at 10.05 each; January: one call, one sms.
    const as = await story("Tax rounding");
    await tax(as, "reduced", "5.5");
    await customer(as, "acme", { tax_codes: ["reduced"] });
    const calls = await metric(as, "calls");
    const sms = await metric(as, "sms");
    await plan(as, "usage", { amount_cents: 0, charges: [standard(calls, "10.05"), standard(sms, "10.05")] });
    await subscribe(as, "acme", "usage", "sub_1");
    await send(as, [event("sub_1", "calls", "2024-01-10T00:00:00Z"), event("sub_1", "sms", "2024-01-10T00:00:00Z")]);
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // each fee: 1005 × 5.5 % = 55.275, rounded on the fee: 55; on the invoice: round(55.275 + 55.275) =
    // round(110.55) = 111 (not 55 + 55 = 110)
    expect(feeOf(invoice!, "charge", "calls").taxes_amount_cents).toBe(55);
    expect(feeOf(invoice!, "charge", "sms").taxes_amount_cents).toBe(55);
    expectTotals(invoice!, { fees: 2_010, taxes: 111 });
    expect(invoice!.applied_taxes).toEqual([
      expect.objectContaining({ tax_code: "reduced", tax_rate: 5.5, amount_cents: 111 }),
    ]);
  });
});

describe("coupons", () => {
  it("spends a fixed-amount once coupon over two invoices until it is used up, taxes on what is left", async () => {
    // Starter (100.00 a month, VAT 20 %); Jan 1: acme gets a 150.00 once coupon. The clock jumps to Mar 1.
    const as = await story("Coupon once");
    await tax(as, "vat", "20");
    await plan(as, "starter", { amount_cents: 10_000, tax_codes: ["vat"] });
    await subscribe(as, "acme", "starter", "sub_1");
    await coupon(as, "welcome", {
      coupon_type: "fixed_amount",
      amount_cents: 15_000,
      amount_currency: "EUR",
      frequency: "once",
    });
    await applyCoupon(as, "acme", "welcome");
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const [february, march] = await invoicesOf(as, "acme");
    // Feb 1: min(150.00 left, 100.00 of fees) = 10,000 off; nothing left to tax; total 0, paid by the coupon
    expectTotals(february!, { fees: 10_000, coupons: 10_000, taxes: 0 });
    expect(february).toMatchObject({ status: "finalized", payment_status: "succeeded" });
    expect(february!.credits).toEqual([
      expect.objectContaining({
        amount_cents: 10_000,
        item: expect.objectContaining({ type: "coupon", code: "welcome" }),
      }),
    ]);
    // Mar 1: the 5000 left; 20 % of the remaining 5000 = 1000; total 6000
    expectTotals(march!, { fees: 10_000, coupons: 5_000, taxes: 1_000 });
    expect(march!.payment_status).toBe("pending");
    // used up: terminated, nothing remaining
    expect(await appliedCoupons(as, "terminated")).toEqual([
      expect.objectContaining({ coupon_code: "welcome", amount_cents_remaining: 0, status: "terminated" }),
    ]);
  });

  it("takes a fixed-amount recurring coupon off for its number of periods, then stops", async () => {
    // A 50.00 monthly plan with GST 10 %; Jan 1: acme gets 10.00 off for 2 periods. The clock jumps to Apr 1.
    const as = await story("Coupon recurring");
    await tax(as, "gst", "10");
    await plan(as, "starter", { amount_cents: 5_000, tax_codes: ["gst"] });
    await subscribe(as, "acme", "starter", "sub_1");
    await coupon(as, "loyal", {
      coupon_type: "fixed_amount",
      amount_cents: 1_000,
      amount_currency: "EUR",
      frequency: "recurring",
      frequency_duration: 2,
    });
    await applyCoupon(as, "acme", "loyal");
    await advanceClock(as, "2024-04-01T00:30:00Z");
    const [february, march, april] = await invoicesOf(as, "acme");
    // Feb 1 and Mar 1: 5000 − 1000 = 4000, 10 % tax 400, total 4400; Apr 1: no coupon, 5000 + 500
    expectTotals(february!, { fees: 5_000, coupons: 1_000, taxes: 400 });
    expectTotals(march!, { fees: 5_000, coupons: 1_000, taxes: 400 });
    expectTotals(april!, { fees: 5_000, coupons: 0, taxes: 500 });
    expect(await appliedCoupons(as, "terminated")).toEqual([
      expect.objectContaining({ coupon_code: "loyal", frequency_duration_remaining: 0 }),
    ]);
  });

  it("takes a percentage coupon off before taxes, spread over the fees", async () => {
    // Starter with VAT 20 %, 7 calls in January; Jan 1: acme gets 12.5 % off, forever.
    const as = await story("Coupon percentage");
    await tax(as, "vat", "20");
    await starterWithSevenCalls(as, { tax_codes: ["vat"] });
    await coupon(as, "spring", { coupon_type: "percentage", percentage_rate: "12.5", frequency: "forever" });
    await applyCoupon(as, "acme", "spring");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // round(10,350 × 12.5 %) = round(1293.75) = 1294, spread pro rata: 1250.24 on the base fee, 43.76 on
    // the calls; taxes on what is left: (10,000 − 1250.24) × 20 % = 1749.95 → 1750 and (350 − 43.76) × 20 %
    // = 61.25 → 61; the invoice's: round(1749.95 + 61.25) = round(1811.2) = 1811; total 9056 + 1811 = 10,867
    expectTotals(invoice!, { fees: 10_350, coupons: 1_294, taxes: 1_811 });
    expect(feeOf(invoice!, "subscription").taxes_amount_cents).toBe(1_750);
    expect(feeOf(invoice!, "charge", "calls").taxes_amount_cents).toBe(61);
    expect(Number(feeOf(invoice!, "subscription").precise_coupons_amount_cents)).toBeCloseTo(1_250.24155, 3);
    expect(await appliedCoupons(as, "active")).toEqual([
      expect.objectContaining({ coupon_code: "spring", status: "active" }),
    ]); // forever
  });

  it("applies coupons limited to metrics, then to plans, then the others, with two taxes", async () => {
    // Two plans without base fee: Core (calls at 1.00 taxed 10 %, storage at 1.00 a gb taxed 20 %) and
    // Extra (seats at 1.00 taxed 10 %). acme subscribes to both; January: 10 calls, 20 gb, 30 seats.
    // Coupons applied in this order: 6.00 off everything, 10 % off plan Extra, 5.00 off metric storage.
    const as = await story("Limited coupons");
    await tax(as, "t10", "10");
    await tax(as, "t20", "20");
    const calls = await metric(as, "calls");
    const storage = await metric(as, "storage", { aggregation_type: "sum_agg", field_name: "gb" });
    const seats = await metric(as, "seats", { aggregation_type: "sum_agg", field_name: "n" });
    await plan(as, "core", {
      amount_cents: 0,
      charges: [standard(calls, "1", { tax_codes: ["t10"] }), standard(storage, "1", { tax_codes: ["t20"] })],
    });
    await plan(as, "extra", { amount_cents: 0, charges: [standard(seats, "1", { tax_codes: ["t10"] })] });
    await subscribe(as, "acme", "core", "sub_core");
    await subscribe(as, "acme", "extra", "sub_extra");
    await coupon(as, "all600", {
      coupon_type: "fixed_amount",
      amount_cents: 600,
      amount_currency: "EUR",
      frequency: "once",
    });
    await coupon(as, "extra10", {
      coupon_type: "percentage",
      percentage_rate: "10",
      frequency: "once",
      applies_to: { plan_codes: ["extra"] },
    });
    await coupon(as, "storage500", {
      coupon_type: "fixed_amount",
      amount_cents: 500,
      amount_currency: "EUR",
      frequency: "once",
      applies_to: { billable_metric_codes: ["storage"] },
    });
    for (const code of ["all600", "extra10", "storage500"]) await applyCoupon(as, "acme", code);
    await send(as, [
      ...events(10, "sub_core", "calls", "2024-01-10T00:00:00Z"),
      event("sub_core", "storage", "2024-01-10T00:00:00Z", { gb: 20 }),
      event("sub_extra", "seats", "2024-01-10T00:00:00Z", { n: 30 }),
    ]);
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice, ...more] = await invoicesOf(as, "acme");
    expect(more).toHaveLength(0); // both subscriptions on one invoice
    // fees: calls 1000, storage 2000, seats 3000 = 6000. Coupons, metric-limited first:
    // storage500 → 500 on storage; then plan-limited: extra10 → 10 % of Extra's 3000 = 300 on seats;
    // then all600 on what is left (5200), pro rata: calls 1000/5200, storage 1500/5200, seats 2700/5200
    // of 600 = 115.38, 173.08, 311.54. Coupons 1400; sub-total 4600.
    const feeCoupons = (code: string) => Number(feeOf(invoice!, "charge", code).precise_coupons_amount_cents);
    expect(feeCoupons("calls")).toBeCloseTo(115.38462, 3);
    expect(feeCoupons("storage")).toBeCloseTo(673.07692, 3);
    expect(feeCoupons("seats")).toBeCloseTo(611.53846, 3);
    // taxes per fee: calls (1000 − 115.38) × 10 % = 88.46 → 88; storage (2000 − 673.08) × 20 % = 265.38 → 265;
    // seats (3000 − 611.54) × 10 % = 238.85 → 239. Per tax: t10 88.46 + 238.85 = 327.31 → 327,
    // t20 265.38 → 265; the invoice's: round(327.31 + 265.38) = round(592.69) = 593 (not 327 + 265)
    expect(["calls", "storage", "seats"].map((code) => feeOf(invoice!, "charge", code).taxes_amount_cents)).toEqual([
      88, 265, 239,
    ]);
    expect(invoice!.applied_taxes.map((t: Json) => [t.tax_code, t.amount_cents]).sort()).toEqual([
      ["t10", 327],
      ["t20", 265],
    ]);
    expectTotals(invoice!, { fees: 6_000, coupons: 1_400, taxes: 593 });
    expect(invoice!.credits.map((c: Json) => [c.item.code, c.amount_cents]).sort()).toEqual([
      ["all600", 600],
      ["extra10", 300],
      ["storage500", 500],
    ]);
  });
});

describe("drafts and finalization", () => {
  it("drafts an invoice during the grace period without coupons, refreshes it, finalizes it on request, and refuses a second finalization", async () => {
    // acme has a 3-day grace period and a 5.00 once coupon. A 20.00 monthly plan, calls at 0.50.
    const as = await story("Grace", { billing_configuration: { invoice_grace_period: 3 } });
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 2_000, charges: [standard(calls, "0.5")] });
    await subscribe(as, "acme", "basic", "sub_1");
    await coupon(as, "five", {
      coupon_type: "fixed_amount",
      amount_cents: 500,
      amount_currency: "EUR",
      frequency: "once",
    });
    await applyCoupon(as, "acme", "five");
    await advanceClock(as, "2024-02-01T10:00:00Z");
    const prefix = await numberPrefix(as);
    const [draft] = await invoicesOf(as, "acme");
    // a draft: no coupon yet (coupons apply at finalization), numbered PREFIX-DRAFT; issued at the end
    // of grace (next_period_start + align_with_finalization_date: Feb 1 + 3 days)
    expect(draft).toMatchObject({
      status: "draft",
      number: `${prefix}-DRAFT`,
      issuing_date: "2024-02-04",
      payment_due_date: "2024-02-04",
    });
    expectTotals(draft!, { fees: 2_000 });

    // a late event of January (Jan 31 20:00), still in the draft's period: refreshing counts it
    await send(as, [event("sub_1", "calls", "2024-01-31T20:00:00Z")]);
    const refreshed = await ok(as("PUT", `/invoices/${draft!.svc_id}/refresh`, {}));
    expect(refreshed.invoice).toMatchObject({ svc_id: draft!.svc_id, status: "draft", number: `${prefix}-DRAFT` });
    expectTotals(refreshed.invoice, { fees: 2_050 }); // 2000 + 1 call × 0.50

    const finalized = await ok(as("PUT", `/invoices/${draft!.svc_id}/finalize`));
    // finalized: the coupon now applies (2050 − 500 = 1550); the first number of acme; finalized by hand
    // on Feb 1, it is issued that day (Lago re-dates a draft finalized early when the adjustment is
    // align_with_finalization_date)
    expect(finalized.invoice).toMatchObject({
      svc_id: draft!.svc_id,
      status: "finalized",
      number: `${prefix}-001-001`,
      issuing_date: "2024-02-01",
      payment_due_date: "2024-02-01",
    });
    expectTotals(finalized.invoice, { fees: 2_050, coupons: 500 });
    expect((await ok(as("GET", `/invoices/${draft!.svc_id}`))).invoice).toEqual(finalized.invoice);

    // only a draft can be finalized: a second finalization and an unknown id are 404 invoice_not_found
    expect(await as("PUT", `/invoices/${draft!.svc_id}/finalize`)).toMatchObject(notFound("invoice_not_found"));
    expect(await as("PUT", "/invoices/00000000-0000-4000-8000-000000000000/finalize")).toMatchObject(
      notFound("invoice_not_found"),
    );
    // and a finalized invoice never changes: a later event of January is not added
    await send(as, [event("sub_1", "calls", "2024-01-31T21:00:00Z")]);
    await advanceClock(as, "2024-02-10T00:00:00Z");
    expect((await ok(as("GET", `/invoices/${draft!.svc_id}`))).invoice).toMatchObject({
      fees_amount_cents: 2_050,
      total_amount_cents: 1_550,
    });
  });

  it("finalizes a draft by itself when its grace period ends inside a clock jump, late usage included", async () => {
    // acme has a 3-day grace period and a 10-day payment term. A 20.00 monthly plan, calls at 0.50.
    const as = await story("Grace jump", { billing_configuration: { invoice_grace_period: 3 }, net_payment_term: 10 });
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 2_000, charges: [standard(calls, "0.5")] });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-02T00:00:00Z");
    const [draft] = await invoicesOf(as, "acme");
    // issued at the end of grace, Feb 4; due 10 days later
    expect(draft).toMatchObject({
      status: "draft",
      fees_amount_cents: 2_000,
      issuing_date: "2024-02-04",
      payment_due_date: "2024-02-14",
      net_payment_term: 10,
    });
    await send(as, [event("sub_1", "calls", "2024-01-31T20:00:00Z")]); // late January usage, during grace
    await advanceClock(as, "2024-02-10T00:00:00Z"); // the grace period ends on Feb 4, inside this jump
    const [invoice] = await invoicesOf(as, "acme");
    // finalized on Feb 4 with the late call: 2000 + 50; issued Feb 4, due Feb 14
    expect(invoice).toMatchObject({
      svc_id: draft!.svc_id,
      status: "finalized",
      issuing_date: "2024-02-04",
      payment_due_date: "2024-02-14",
    });
    expect(invoice!.number).toBe(`${await numberPrefix(as)}-001-001`);
    expectTotals(invoice!, { fees: 2_050 });
  });

  it("issues a periodic invoice on the period's last day when the customer anchors it there", async () => {
    // acme: issuing date anchored to the current period's end, kept (no grace); 30-day payment term.
    const as = await story("Issuing anchor", {
      net_payment_term: 30,
      billing_configuration: {
        subscription_invoice_issuing_date_anchor: "current_period_end",
        subscription_invoice_issuing_date_adjustment: "keep_anchor",
      },
    });
    await plan(as, "basic", { amount_cents: 2_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // current_period_end + keep_anchor: billing day − 1 = Jan 31; due Jan 31 + 30 days = Mar 1
    expect(invoice).toMatchObject({
      status: "finalized",
      issuing_date: "2024-01-31",
      payment_due_date: "2024-03-01",
      net_payment_term: 30,
    });
  });

  it("finalizes a zero-amount invoice by default, and closes it (not shown) for a customer who skips them", async () => {
    // A free plan; acme skips zero-amount invoices, globex inherits the billing entity's "finalize".
    const as = await story("Zero amount", { finalize_zero_amount_invoice: "skip" });
    await customer(as, "globex");
    await plan(as, "free", { amount_cents: 0 });
    await subscribe(as, "acme", "free", "sub_1");
    await subscribe(as, "globex", "free", "sub_2");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    // acme's invoice is closed: kept, but Lago's API lists no closed invoice
    expect(await invoicesOf(as, "acme")).toEqual([]);
    const [invoice] = await invoicesOf(as, "globex");
    // globex's: finalized at 0, nothing to pay, numbered
    expect(invoice).toMatchObject({ status: "finalized", payment_status: "succeeded" });
    expectTotals(invoice!, { fees: 0 });
    expect(invoice!.number).toMatch(/-002-001$/); // globex is the second customer
  });
});

describe("numbering", () => {
  it("numbers each customer's invoices in its own sequence (per_customer)", async () => {
    // acme (sequential_id 1) and globex (2) subscribe to a 10.00 monthly plan; the clock jumps to Mar 1.
    const as = await story("Per customer");
    const globex = await customer(as, "globex");
    expect(globex.sequential_id).toBe(2);
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await subscribe(as, "globex", "basic", "sub_2");
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const prefix = await numberPrefix(as);
    // {prefix}-{customer sequential id}-{the customer's n-th finalized invoice}
    expect((await invoicesOf(as, "acme")).map((i) => [i.number, i.sequential_id])).toEqual([
      [`${prefix}-001-001`, 1],
      [`${prefix}-001-002`, 2],
    ]);
    expect((await invoicesOf(as, "globex")).map((i) => [i.number, i.sequential_id])).toEqual([
      [`${prefix}-002-001`, 1],
      [`${prefix}-002-002`, 2],
    ]);
  });

  it("numbers invoices across the organization once the billing entity switches, continuing its count", async () => {
    // acme and globex subscribe to a 10.00 monthly plan. February's invoices are numbered per customer;
    // then the billing entity switches to per-organization numbering with prefix ORG-1.
    const as = await story("Per organization");
    await customer(as, "globex");
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await subscribe(as, "globex", "basic", "sub_2");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const prefix = await numberPrefix(as);
    const numbers = async () =>
      [...(await invoicesOf(as, "acme")), ...(await invoicesOf(as, "globex"))].map((i) => i.number as string);
    expect((await numbers()).sort()).toEqual([`${prefix}-001-001`, `${prefix}-002-001`]);

    // Lago's PUT /billing_entities/{code} (document_numbering per_billing_entity is the API's per organization)
    const updated = await ok(
      as("PUT", "/billing_entities/default", {
        billing_entity: { document_numbering: "per_billing_entity", document_number_prefix: "ORG-1" },
      }),
    );
    expect(updated.billing_entity).toMatchObject({
      document_numbering: "per_billing_entity",
      document_number_prefix: "ORG-1",
    });
    await advanceClock(as, "2024-04-01T00:30:00Z");
    // {prefix}-{YYYYMM of finalization}-{n}: n counts every finalized invoice of the billing entity, the
    // two per-customer ones included (not reset monthly): 3 and 4 on Mar 1, 5 and 6 on Apr 1
    expect((await numbers()).sort()).toEqual(
      [
        `${prefix}-001-001`,
        `${prefix}-002-001`,
        "ORG-1-202403-003",
        "ORG-1-202403-004",
        "ORG-1-202404-005",
        "ORG-1-202404-006",
      ].sort(),
    );
  });
});

describe("usage", () => {
  it("shows the current period's usage priced, then the billed period in the past usage", async () => {
    // A 20.00 monthly plan, calls at 0.50. Jan 15: 4 calls sent without a timestamp (the clock's time).
    const as = await story("Usage");
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 2_000, charges: [standard(calls, "0.5")] });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-01-15T00:00:00Z");
    for (let i = 0; i < 4; i++) {
      const created = await ok(
        as("POST", "/events", {
          event: { transaction_id: `now-${i}`, external_subscription_id: "sub_1", code: "calls" },
        }),
      );
      expect(instant(created.event.timestamp)).toBe(instant("2024-01-15T00:00:00Z")); // an event's default timestamp is the clock's
    }
    let usage: Json = {};
    for (let i = 0; i < 100; i++) {
      usage = await ok(as("GET", "/customers/acme/current_usage?external_subscription_id=sub_1"));
      if (usage.customer_usage?.amount_cents === 200) break;
      await new Promise((r) => setTimeout(r, 100)); // storage may lag ingestion by a moment
    }
    // January so far: 4 calls × 0.50 = 200 (the base fee is not usage)
    expect(usage.customer_usage).toMatchObject({
      amount_cents: 200,
      taxes_amount_cents: 0,
      total_amount_cents: 200,
      currency: "EUR",
    });
    expect(span(usage.customer_usage.from_datetime, usage.customer_usage.to_datetime)).toEqual(
      span("2024-01-01T00:00:00Z", "2024-01-31T23:59:59.999Z"),
    );
    expect(usage.customer_usage.charges_usage).toEqual([
      expect.objectContaining({
        units: "4.0",
        events_count: 4,
        amount_cents: 200,
        billable_metric: expect.objectContaining({ code: "calls" }),
      }),
    ]);
    expect(await as("GET", "/customers/nobody/current_usage?external_subscription_id=sub_1")).toMatchObject(
      notFound("customer_not_found"),
    );

    await advanceClock(as, "2024-02-01T00:30:00Z");
    const past = await ok(as("GET", "/customers/acme/past_usage?external_subscription_id=sub_1"));
    // the billed January, as invoiced
    expect(past.usage_periods).toHaveLength(1);
    expect(past.usage_periods[0]).toMatchObject({ amount_cents: 200 });
    expect(span(past.usage_periods[0].from_datetime, past.usage_periods[0].to_datetime)).toEqual(
      span("2024-01-01T00:00:00Z", "2024-01-31T23:59:59.999Z"),
    );
    expect(past.usage_periods[0].charges_usage).toEqual([expect.objectContaining({ units: "4.0", amount_cents: 200 })]);
    // and the current period is now February, with no usage yet
    const february = await ok(as("GET", "/customers/acme/current_usage?external_subscription_id=sub_1"));
    expect(february.customer_usage.amount_cents).toBe(0);
    expect(instant(february.customer_usage.from_datetime)).toBe(instant("2024-02-01T00:00:00Z"));
  });
});
