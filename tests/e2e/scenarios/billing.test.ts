import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../support/api";
import { openapiErrors } from "../../support/openapi";
import { startE2E, type E2E } from "../../support/platform";
import { advanceClock, seconds } from "../../support/sandbox";

// Billing stories on sandbox organizations: dates, what happens, the cents it must produce.
let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E("billing");
});

afterAll(async () => {
  await e2e?.stop();
});

type Api = ReturnType<typeof api>;

async function setup(as: Api, plan: Record<string, unknown>, charges: Array<Record<string, unknown>> = []) {
  const metric = await as("POST", "/billable_metrics", { billable_metric: { name: "API calls", code: "calls", aggregation_type: "count_agg" } });
  expect(metric.status).toBe(200);
  const created = await as("POST", "/plans", {
    plan: {
      name: "Starter", code: "starter", interval: "monthly", amount_currency: "EUR", pay_in_advance: false, ...plan,
      charges: charges.map((c) => ({ billable_metric_id: metric.body.billable_metric.svc_id, ...c })),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
}

async function invoicesOf(as: Api, customer: string) {
  const list = await as("GET", `/invoices?external_customer_id=${customer}`);
  expect(list.status).toBe(200);
  expect(openapiErrors("InvoicesPaginated", list.body)).toEqual([]);
  const invoices = list.body.invoices as Array<Record<string, any>>;
  // each one read alone is Lago's Invoice (InvoiceObjectExtended), fees included
  for (const invoice of invoices) {
    const one = await as("GET", `/invoices/${invoice.svc_id}`);
    expect(openapiErrors("Invoice", one.body)).toEqual([]);
    expect(one.body.invoice).toEqual(invoice);
  }
  return invoices;
}

describe("subscription invoices", () => {
  it("bills a monthly arrears plan at the end of its first month: base fee and usage", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Arrears", "2024-01-01T00:00:00Z").api_key);
    await setup(as, { amount_cents: 10_000 }, [{ charge_model: "standard", properties: { amount: "0.5" } }]);
    const sub = await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    // 7 calls in January, at 0.50 each = 350 cents
    for (let i = 0; i < 7; i++) {
      const ev = await as("POST", "/events", { event: { transaction_id: `t${i}`, external_subscription_id: "sub_1", code: "calls", timestamp: seconds(`2024-01-${10 + i}T10:00:00Z`) } });
      expect(ev.status).toBe(200);
    }
    await advanceClock(as, "2024-02-01T12:00:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    expect(invoice).toMatchObject({
      invoice_type: "subscription", status: "finalized", currency: "EUR", issuing_date: "2024-02-01",
      fees_amount_cents: 10_350, taxes_amount_cents: 0, total_amount_cents: 10_350,
    });
    const fees = invoice!.fees as Array<Record<string, any>>;
    expect(fees.map((f) => [f.item.type, f.amount_cents, f.units])).toEqual([["subscription", 10_000, "1.0"], ["charge", 350, "7.0"]]);
    expect(invoice!.billing_periods[0]).toMatchObject({ invoicing_reason: "subscription_periodic", charges_from_datetime: "2024-01-01T00:00:00.000Z" });
    expect(invoice!.number).toMatch(/-001-001$/);
  });

  it("bills a pay-in-advance plan when it starts, then each period's fee in advance with the last period's usage", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Advance", "2024-01-01T00:00:00Z").api_key);
    await setup(as, { amount_cents: 10_000, pay_in_advance: true }, [{ charge_model: "standard", properties: { amount: "1" } }]);
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    await as("POST", "/events", { event: { transaction_id: "t1", external_subscription_id: "sub_1", code: "calls", timestamp: seconds("2024-01-05T00:00:00Z") } });
    await advanceClock(as, "2024-02-01T01:00:00Z");
    const invoices = (await invoicesOf(as, "acme")).reverse();
    // Jan 1: January's fee in advance (a calendar start on the 1st: the whole month)
    expect(invoices[0]).toMatchObject({ issuing_date: "2024-01-01", fees_amount_cents: 10_000 });
    expect(invoices[0]!.billing_periods[0].invoicing_reason).toBe("subscription_starting");
    // Feb 1: February's fee in advance + January's one call at 1.00
    expect(invoices[1]).toMatchObject({ issuing_date: "2024-02-01", fees_amount_cents: 10_100 });
    expect(invoices[1]!.fees.map((f: any) => [f.item.type, f.amount_cents, f.from_date.slice(0, 10)])).toEqual([["subscription", 10_000, "2024-02-01"], ["charge", 100, "2024-01-01"]]);
    expect(invoices.map((i) => i.number.slice(-3))).toEqual(["001", "002"]);
  });

  it("prorates a calendar plan started mid-month: 17 days of January", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Mid-month", "2024-01-15T09:00:00Z").api_key);
    await setup(as, { amount_cents: 3_100 });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    await advanceClock(as, "2024-02-01T00:00:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    // Jan 15–31 = 17 days of a 31-day month: round(17 × 3100 / 31) = 1700
    expect(invoice).toMatchObject({ fees_amount_cents: 1_700, total_amount_cents: 1_700 });
  });

  it("bills an anniversary plan on its anniversary, the whole period", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Anniversary", "2024-01-15T09:00:00Z").api_key);
    await setup(as, { amount_cents: 3_100 });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "anniversary" } });
    await advanceClock(as, "2024-02-14T23:00:00Z");
    expect(await invoicesOf(as, "acme")).toHaveLength(0); // the period runs to Feb 14 included
    await advanceClock(as, "2024-02-15T01:00:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    expect(invoice).toMatchObject({ issuing_date: "2024-02-15", fees_amount_cents: 3_100 });
    expect(invoice!.fees[0].from_date).toBe("2024-01-15T00:00:00.000Z");
  });

  it("yields one invoice per boundary when the clock jumps across three of them, numbered in order", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Jump", "2024-01-01T00:00:00Z").api_key);
    await setup(as, { amount_cents: 1_000 });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    await advanceClock(as, "2024-04-01T00:00:00Z");
    const invoices = (await invoicesOf(as, "acme")).reverse();
    expect(invoices.map((i) => [i.issuing_date, i.fees_amount_cents, i.number.slice(-3)])).toEqual([
      ["2024-02-01", 1_000, "001"], ["2024-03-01", 1_000, "002"], ["2024-04-01", 1_000, "003"],
    ]);
  });

  it("bills a termination at once: the base fee up to the termination day and the usage so far", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Termination", "2024-01-01T00:00:00Z").api_key);
    await setup(as, { amount_cents: 3_100 }, [{ charge_model: "standard", properties: { amount: "2" } }]);
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    await as("POST", "/events", { event: { transaction_id: "t1", external_subscription_id: "sub_1", code: "calls", timestamp: seconds("2024-01-03T00:00:00Z") } });
    await advanceClock(as, "2024-01-20T12:00:00Z");
    expect((await as("DELETE", "/subscriptions/sub_1")).status).toBe(200);
    let invoices: Array<Record<string, any>> = [];
    for (let i = 0; i < 50 && invoices.length === 0; i++) {
      invoices = await invoicesOf(as, "acme");
      if (invoices.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    // Jan 1–20 = 20 days of 31: round(20 × 3100 / 31) = 2000, plus one call at 2.00
    expect(invoices[0]).toMatchObject({ issuing_date: "2024-01-20", fees_amount_cents: 2_200 });
    expect(invoices[0]!.billing_periods[0].invoicing_reason).toBe("subscription_terminating");
    await advanceClock(as, "2024-02-02T00:00:00Z");
    expect(await invoicesOf(as, "acme")).toHaveLength(1); // nothing more once terminated
  });
});

describe("taxes and amounts", () => {
  it("applies the plan's tax to every fee: 20 % of 10,350 = 2,070", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Taxes", "2024-01-01T00:00:00Z").api_key);
    expect((await as("POST", "/taxes", { tax: { name: "VAT", code: "vat", rate: "20" } })).status).toBe(200);
    await setup(as, { amount_cents: 10_000, tax_codes: ["vat"] }, [{ charge_model: "standard", properties: { amount: "0.5" } }]);
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    for (let i = 0; i < 7; i++) {
      await as("POST", "/events", { event: { transaction_id: `t${i}`, external_subscription_id: "sub_1", code: "calls", timestamp: seconds("2024-01-20T00:00:00Z") } });
    }
    await advanceClock(as, "2024-02-01T00:00:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    expect(invoice).toMatchObject({
      fees_amount_cents: 10_350, taxes_amount_cents: 2_070, sub_total_excluding_taxes_amount_cents: 10_350,
      sub_total_including_taxes_amount_cents: 12_420, total_amount_cents: 12_420,
    });
    expect(invoice!.applied_taxes).toEqual([expect.objectContaining({ tax_code: "vat", tax_rate: 20, amount_cents: 2_070 })]);
  });

  it("prices graduated usage tier by tier: 10 at 1.00 then 5 at 0.50 = 12.50", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Graduated", "2024-01-01T00:00:00Z").api_key);
    await setup(as, { amount_cents: 0 }, [{
      charge_model: "graduated",
      properties: { graduated_ranges: [
        { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "0" },
        { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "0" },
      ] },
    }]);
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    const events = Array.from({ length: 15 }, (_, i) => ({ transaction_id: `t${i}`, external_subscription_id: "sub_1", code: "calls", timestamp: seconds("2024-01-20T00:00:00Z") }));
    expect((await as("POST", "/events/batch", { events })).status).toBe(200);
    await advanceClock(as, "2024-02-01T00:00:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    expect(invoice!.fees.find((f: any) => f.item.type === "charge")).toMatchObject({ amount_cents: 1_250, units: "15.0", events_count: 15 });
  });

  it("closes a zero-amount invoice when the customer skips them: kept, but not shown (Lago's API lists no closed invoice)", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Zero", "2024-01-01T00:00:00Z").api_key);
    await setup(as, { amount_cents: 0 });
    await as("POST", "/customers", { customer: { external_id: "acme", currency: "EUR", finalize_zero_amount_invoice: "skip" } });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "starter", external_id: "sub_1", billing_time: "calendar" } });
    await advanceClock(as, "2024-02-01T00:00:00Z");
    expect(await invoicesOf(as, "acme")).toEqual([]);
    // the same story with zero-amount invoices finalized (the default) shows a finalized invoice of 0
    await as("POST", "/customers", { customer: { external_id: "other", currency: "EUR" } });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "other", plan_code: "starter", external_id: "sub_2", billing_time: "calendar" } });
    await advanceClock(as, "2024-03-01T00:00:00Z");
    expect((await invoicesOf(as, "other")).map((i) => [i.status, i.total_amount_cents])).toEqual([["finalized", 0]]);
  });
});
