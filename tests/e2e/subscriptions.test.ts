import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";
import { startE2E, type E2E } from "../support/platform";

let e2e: E2E;
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;

beforeAll(async () => {
  // the scheduler's default pass (every second) starts a pending subscription well within the test's wait
  e2e = await startE2E("subscriptions");
  asA = api(e2e.platform.baseUrl, (await e2e.organization("Acme Corp")).api_key);
  asB = api(e2e.platform.baseUrl, (await e2e.organization("Globex")).api_key);
  const metric = await asA("POST", "/billable_metrics", {
    billable_metric: { name: "Calls", code: "calls", aggregation_type: "count_agg" },
  });
  const plan = (code: string, amount_cents: number) =>
    asA("POST", "/plans", {
      plan: {
        name: code,
        code,
        interval: "monthly",
        amount_cents,
        amount_currency: "EUR",
        pay_in_advance: false,
        usage_thresholds: [{ amount_cents: 50_000, threshold_display_name: "50k" }],
        charges: [
          {
            billable_metric_id: metric.body.billable_metric.svc_id,
            charge_model: "standard",
            properties: { amount: "0.01" },
          },
        ],
      },
    });
  for (const [code, amount] of [
    ["basic", 1000],
    ["premium", 5000],
    ["starter", 500],
  ] as const)
    expect((await plan(code, amount)).status).toBe(200);
});

afterAll(async () => {
  await e2e?.stop();
});

const subscribe = (subscription: Record<string, unknown>) => asA("POST", "/subscriptions", { subscription });

describe("subscriptions end to end", () => {
  it("subscribes a new customer, reads it back with its plan, upgrades, downgrades and terminates", async () => {
    const created = await subscribe({
      external_customer_id: "cus_1",
      plan_code: "basic",
      external_id: "sub_1",
      billing_time: "anniversary",
    });
    expect(created.status).toBe(200);
    expect(openapiErrors("SubscriptionExtended", created.body)).toEqual([]);
    expect(created.body.subscription).toMatchObject({
      external_id: "sub_1",
      status: "active",
      plan_code: "basic",
      billing_time: "anniversary",
      plan: { code: "basic" },
      applicable_usage_thresholds: [{ amount_cents: 50_000, threshold_display_name: "50k", recurring: false }],
    });
    const customer = await asA("GET", "/customers/cus_1");
    expect(customer.body.customer).toMatchObject({
      svc_id: created.body.subscription.svc_customer_id,
      currency: "EUR",
    });
    const read = await asA("GET", "/subscriptions/sub_1");
    expect(openapiErrors("SubscriptionExtended", read.body)).toEqual([]);
    expect(read.body).toEqual(created.body);

    const upgraded = await subscribe({ external_customer_id: "cus_1", plan_code: "premium", external_id: "sub_1" });
    expect(upgraded.body.subscription).toMatchObject({
      plan_code: "premium",
      previous_plan_code: "basic",
      status: "active",
    });
    expect((await asA("GET", "/subscriptions/sub_1?status=terminated")).body.subscription).toMatchObject({
      plan_code: "basic",
      status: "terminated",
    });

    const downgraded = await subscribe({ external_customer_id: "cus_1", plan_code: "starter", external_id: "sub_1" });
    expect(downgraded.body.subscription).toMatchObject({ plan_code: "premium", next_plan_code: "starter" });
    expect(downgraded.body.subscription.downgrade_plan_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await asA("GET", "/subscriptions/sub_1?status=pending")).body.subscription).toMatchObject({
      plan_code: "starter",
      status: "pending",
    });

    const ended = await asA("DELETE", "/subscriptions/sub_1");
    expect(ended.status).toBe(200);
    expect(openapiErrors("Subscription", ended.body)).toEqual([]);
    expect(ended.body.subscription).toMatchObject({ status: "terminated", next_plan_code: null });
    expect((await asA("GET", "/subscriptions/sub_1?status=pending")).status).toBe(404);
    const terminated = await asA(
      "GET",
      "/subscriptions?status[]=terminated&status[]=canceled&external_customer_id=cus_1",
    );
    expect(openapiErrors("SubscriptionsPaginated", terminated.body)).toEqual([]);
    expect(
      terminated.body.subscriptions.map((s: { plan_code: string; status: string }) => `${s.plan_code}:${s.status}`),
    ).toEqual(["starter:canceled", "premium:terminated", "basic:terminated"]);
    expect(terminated.body.subscriptions[0].plan).toBeUndefined();
  });

  it("starts a pending subscription once the clock passes subscription_at", async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    const created = await subscribe({
      external_customer_id: "cus_2",
      plan_code: "basic",
      external_id: "sub_later",
      subscription_at: at,
    });
    expect(created.body.subscription).toMatchObject({ status: "pending", started_at: null });
    expect((await asA("GET", "/subscriptions/sub_later")).status).toBe(404);
    await waitFor(async () => (await asA("GET", "/subscriptions/sub_later")).status === 200, {
      what: "pending → active",
      timeoutMs: 15_000,
    });
    const active = await asA("GET", "/subscriptions/sub_later");
    expect(active.body.subscription).toMatchObject({ status: "active", started_at: at });
  });

  it("updates by status, lists with pagination and overrides the plan privately", async () => {
    await subscribe({
      external_customer_id: "cus_3",
      plan_code: "basic",
      external_id: "sub_p",
      subscription_at: "2099-01-01T00:00:00Z",
    });
    const renamed = await asA("PUT", "/subscriptions/sub_p?status=pending", { subscription: { name: "Future" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.subscription).toMatchObject({ name: "Future", status: "pending" });
    const beside = await asA("PUT", "/subscriptions/sub_p", {
      status: "pending",
      subscription: { ending_at: "2099-06-01T00:00:00Z" },
    });
    expect(beside.body.subscription).toMatchObject({ ending_at: "2099-06-01T00:00:00.000Z" });

    const basic = (await asA("GET", "/plans/basic")).body.plan;
    const custom = await subscribe({
      external_customer_id: "cus_3",
      plan_code: "basic",
      external_id: "sub_custom",
      plan_overrides: {
        amount_cents: 4200,
        charges: [{ id: basic.charges[0].svc_id, properties: { amount: "0.02" } }],
      },
    });
    expect(custom.status).toBe(200);
    expect(custom.body.subscription).toMatchObject({
      plan_amount_cents: 4200,
      plan: { code: "basic", amount_cents: 4200, charges: [{ properties: { amount: "0.02" } }] },
    });
    expect((await asA("GET", "/plans/basic")).body.plan).toEqual(basic);

    const page = await asA(
      "GET",
      "/subscriptions?per_page=1&page=2&status[]=active&status[]=pending&external_customer_id=cus_3",
    );
    expect(page.body.meta).toEqual({ current_page: 2, next_page: null, prev_page: 1, total_pages: 2, total_count: 2 });
    expect(page.body.subscriptions.map((s: { external_id: string }) => s.external_id)).toEqual(["sub_p"]);
    const ofCustomer = await asA("GET", "/customers/cus_3/subscriptions?status[]=pending");
    expect(openapiErrors("SubscriptionsPaginated", ofCustomer.body)).toEqual([]);
    expect(ofCustomer.body.subscriptions.map((s: { external_id: string }) => s.external_id)).toEqual(["sub_p"]);
  });

  it("answers bad input with 400/422/404 and stores nothing; another organization sees nothing", async () => {
    expect((await asA("POST", "/subscriptions", { nope: {} })).status).toBe(400);
    const invalid = await subscribe({
      external_customer_id: "",
      plan_code: "basic",
      external_id: "x",
      billing_time: "weekly",
      subscription_at: "soon",
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error_details).toMatchObject({
      external_customer_id: ["value_is_mandatory"],
      billing_time: ["value_is_invalid"],
      subscription_at: ["invalid_date"],
    });
    const unknownPlan = await subscribe({ external_customer_id: "ghost", plan_code: "nope", external_id: "x" });
    expect(unknownPlan).toMatchObject({ status: 404, body: { code: "plan_not_found" } });
    const badOverride = await subscribe({
      external_customer_id: "ghost",
      plan_code: "basic",
      external_id: "x",
      plan_overrides: { charges: [{ id: "no-such-charge", properties: { amount: "1" } }] },
    });
    expect(badOverride.status).toBe(422);
    expect((await asA("GET", "/customers/ghost")).status).toBe(404);
    expect((await asA("GET", "/subscriptions/x?status=pending")).status).toBe(404);
    expect((await asA("DELETE", "/subscriptions/sub_p?on_termination_invoice=later")).status).toBe(422);

    expect((await asB("GET", "/subscriptions/sub_custom")).status).toBe(404);
    expect((await asB("PUT", "/subscriptions/sub_custom", { subscription: { name: "x" } })).status).toBe(404);
    expect((await asB("DELETE", "/subscriptions/sub_custom")).status).toBe(404);
    expect(
      (await asB("GET", "/subscriptions?status[]=active&status[]=pending&status[]=terminated")).body.meta.total_count,
    ).toBe(0);
    const taken = await asB("POST", "/subscriptions", {
      subscription: { external_customer_id: "cus_3", plan_code: "basic", external_id: "sub_custom" },
    });
    expect(taken).toMatchObject({ status: 404, body: { code: "plan_not_found" } });
  });
});
