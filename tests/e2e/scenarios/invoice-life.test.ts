import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../support/api";
import { openapiErrors } from "../../support/openapi";
import { startE2E, type E2E } from "../../support/platform";
import { advanceClock, seconds } from "../../support/sandbox";

// Drafts, finalization, numbering, current usage, time zones and isolation between organizations.
let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E("invoice_life");
});

afterAll(async () => {
  await e2e?.stop();
});

type Api = ReturnType<typeof api>;

async function monthlyPlan(as: Api, amountCents: number) {
  const metric = await as("POST", "/billable_metrics", { billable_metric: { name: "Calls", code: "calls", aggregation_type: "count_agg" } });
  await as("POST", "/plans", {
    plan: {
      name: "Basic", code: "basic", interval: "monthly", amount_cents: amountCents, amount_currency: "USD", pay_in_advance: false,
      charges: [{ billable_metric_id: metric.body.billable_metric.svc_id, charge_model: "standard", properties: { amount: "0.5" } }],
    },
  });
}

const invoicesOf = async (as: Api, customer: string) => (await as("GET", `/invoices?external_customer_id=${customer}`)).body.invoices as Array<Record<string, any>>;

describe("drafts during the grace period", () => {
  it("drafts the invoice, finalizes it on request with its number, and refuses a second finalization", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Grace", "2024-01-01T00:00:00Z").api_key);
    await monthlyPlan(as, 2_000);
    await as("POST", "/customers", { customer: { external_id: "acme", currency: "USD", billing_configuration: { invoice_grace_period: 3 } } });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "basic", external_id: "sub_1" } });
    await advanceClock(as, "2024-02-01T10:00:00Z");
    const [draft] = await invoicesOf(as, "acme");
    expect(draft).toMatchObject({ status: "draft", fees_amount_cents: 2_000 });
    expect(draft!.number).toMatch(/-DRAFT$/);
    // a late event of January, still counted: the draft is refreshed when finalized
    await as("POST", "/events", { event: { transaction_id: "late", external_subscription_id: "sub_1", code: "calls", timestamp: seconds("2024-01-31T20:00:00Z") } });
    const finalized = await as("PUT", `/invoices/${draft!.svc_id}/finalize`);
    expect(finalized.status).toBe(200);
    expect(openapiErrors("Invoice", finalized.body)).toEqual([]);
    expect(finalized.body.invoice).toMatchObject({ status: "finalized", fees_amount_cents: 2_050 });
    expect(finalized.body.invoice.number).toMatch(/-001-001$/);
    const again = await as("PUT", `/invoices/${draft!.svc_id}/finalize`);
    expect(again).toMatchObject({ status: 404, body: { status: 404, error: "Not Found", code: "invoice_not_found" } });
    expect(await as("PUT", "/invoices/00000000-0000-4000-8000-000000000000/finalize")).toMatchObject({ status: 404, body: { code: "invoice_not_found" } });
  });

  it("finalizes a draft by itself when its grace period ends inside a clock jump", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Grace jump", "2024-01-01T00:00:00Z").api_key);
    await monthlyPlan(as, 2_000);
    await as("POST", "/customers", { customer: { external_id: "acme", currency: "USD", billing_configuration: { invoice_grace_period: 3 } } });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "basic", external_id: "sub_1" } });
    await advanceClock(as, "2024-02-10T00:00:00Z");
    const [invoice] = await invoicesOf(as, "acme");
    expect(invoice).toMatchObject({ status: "finalized", fees_amount_cents: 2_000 });
    expect(invoice!.number).toMatch(/-001-001$/);
  });
});

describe("current usage", () => {
  it("shows the current period's usage priced, as Lago's CustomerUsage", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("Usage", "2024-01-01T00:00:00Z").api_key);
    await monthlyPlan(as, 2_000);
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "basic", external_id: "sub_1" } });
    await advanceClock(as, "2024-01-15T00:00:00Z");
    for (let i = 0; i < 4; i++) await as("POST", "/events", { event: { transaction_id: `t${i}`, external_subscription_id: "sub_1", code: "calls" } });
    let usage: Record<string, any> = {};
    for (let i = 0; i < 100; i++) {
      usage = (await as("GET", "/customers/acme/current_usage?external_subscription_id=sub_1")).body;
      if (usage.customer_usage?.amount_cents === 200) break;
      await new Promise((r) => setTimeout(r, 100)); // storage lags ingestion by a moment
    }
    expect(openapiErrors("CustomerUsage", usage)).toEqual([]);
    expect(usage.customer_usage).toMatchObject({
      from_datetime: "2024-01-01T00:00:00.000Z", to_datetime: "2024-01-31T23:59:59.999Z", amount_cents: 200, currency: "USD",
    });
    expect(usage.customer_usage.charges_usage[0]).toMatchObject({ units: "4.0", events_count: 4, amount_cents: 200, billable_metric: { code: "calls" } });
    expect((await as("GET", "/customers/nobody/current_usage?external_subscription_id=sub_1")).status).toBe(404);
  });
});

describe("time zones", () => {
  it("bills at midnight in the customer's zone, across the March DST change", async () => {
    const as = api(e2e.platform.baseUrl, e2e.sandbox("New York", "2024-02-01T05:00:00Z").api_key);
    await monthlyPlan(as, 3_100);
    await as("POST", "/customers", { customer: { external_id: "ny", currency: "USD", timezone: "America/New_York" } });
    await as("POST", "/subscriptions", { subscription: { external_customer_id: "ny", plan_code: "basic", external_id: "sub_1", billing_time: "calendar" } });
    await advanceClock(as, "2024-03-01T04:30:00Z"); // still Feb 29 in New York (EST, UTC−5)
    expect(await invoicesOf(as, "ny")).toHaveLength(0);
    await advanceClock(as, "2024-03-01T05:30:00Z");
    expect((await invoicesOf(as, "ny")).map((i) => [i.issuing_date, i.fees_amount_cents])).toEqual([["2024-03-01", 3_100]]);
    // DST starts on March 10: April 1 begins at 04:00 UTC (EDT, UTC−4)
    await advanceClock(as, "2024-04-01T04:30:00Z");
    const invoices = await invoicesOf(as, "ny");
    expect(invoices.map((i) => i.issuing_date)).toEqual(["2024-04-01", "2024-03-01"]);
    expect(invoices[0]!.fees[0]).toMatchObject({ from_date: "2024-03-01T05:00:00.000Z", to_date: "2024-04-01T03:59:59.999Z", amount_cents: 3_100 });
  });
});

describe("isolation between organizations", () => {
  it("never shows, finalizes or refreshes another organization's invoice", async () => {
    const a = api(e2e.platform.baseUrl, e2e.sandbox("Org A", "2024-01-01T00:00:00Z").api_key);
    const b = api(e2e.platform.baseUrl, e2e.sandbox("Org B", "2024-01-01T00:00:00Z").api_key);
    await monthlyPlan(a, 1_000);
    await a("POST", "/customers", { customer: { external_id: "acme", currency: "USD", billing_configuration: { invoice_grace_period: 2 } } });
    await a("POST", "/subscriptions", { subscription: { external_customer_id: "acme", plan_code: "basic", external_id: "sub_1" } });
    await advanceClock(a, "2024-02-01T00:00:00Z");
    const [invoice] = await invoicesOf(a, "acme");
    for (const [method, path] of [["GET", ""], ["PUT", "/finalize"], ["PUT", "/refresh"]] as const) {
      expect(await b(method, `/invoices/${invoice!.svc_id}${path}`)).toMatchObject({ status: 404, body: { code: "invoice_not_found" } });
    }
    expect((await b("GET", "/invoices")).body.invoices).toEqual([]);
    expect((await b("GET", "/customers/acme/current_usage?external_subscription_id=sub_1")).status).toBe(404);
    expect((await b("GET", "/test_clock")).body.test_clock.frozen_time).toBe("2024-01-01T00:00:00.000Z"); // B's clock did not move
    expect((await a("GET", `/invoices/${invoice!.svc_id}`)).status).toBe(200);
  });
});
