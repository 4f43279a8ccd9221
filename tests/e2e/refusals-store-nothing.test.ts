import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rpc, type UsageRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import { waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { startE2E, type E2E } from "../support/platform";

/**
 * Every refused request stores nothing: for each create and update endpoint, a set of invalid
 * bodies (not JSON, no root key, a root that is not an object, a wrong type, one bad field among
 * good ones, an unknown reference) is answered 4xx, and every list the organization has reads the
 * same afterwards as before. Events, which have no list, are counted by the usage service.
 */
let e2e: E2E;
let org: { organization_id: string; api_key: string };
let asA: ReturnType<typeof api>;
let usage: RpcClient<UsageRpc>;
let walletId: string;
let endpointId: string;

const LISTS = [
  "/customers",
  "/plans",
  "/billable_metrics",
  "/coupons",
  "/add_ons",
  "/taxes",
  "/subscriptions",
  "/wallets",
  "/payments",
  "/webhook_endpoints",
  "/applied_coupons",
  "/invoices",
];

async function ok(p: ReturnType<ReturnType<typeof api>>) {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Every list, every page (per_page 100 is enough here). */
async function snapshot(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of LISTS) out[path] = await ok(asA("GET", `${path}?per_page=100`));
  return out;
}

beforeAll(async () => {
  e2e = await startE2E("refusals");
  org = await e2e.organization("Refusals");
  asA = api(e2e.platform.baseUrl, org.api_key);
  await ok(asA("POST", "/taxes", { tax: { name: "VAT", code: "vat", rate: "20" } }));
  await ok(
    asA("POST", "/customers", { customer: { external_id: "cus_1", name: "Acme", currency: "EUR", country: "FR" } }),
  );
  await ok(
    asA("POST", "/billable_metrics", {
      billable_metric: { name: "Calls", code: "calls", aggregation_type: "count_agg" },
    }),
  );
  await ok(
    asA("POST", "/plans", {
      plan: {
        name: "Basic",
        code: "basic",
        interval: "monthly",
        amount_cents: 1000,
        amount_currency: "EUR",
        pay_in_advance: false,
      },
    }),
  );
  await ok(
    asA("POST", "/subscriptions", {
      subscription: { external_customer_id: "cus_1", plan_code: "basic", external_id: "sub_1" },
    }),
  );
  await ok(
    asA("POST", "/add_ons", { add_on: { name: "Setup", code: "setup", amount_cents: 500, amount_currency: "EUR" } }),
  );
  await ok(
    asA("POST", "/coupons", {
      coupon: {
        name: "Ten",
        code: "ten",
        coupon_type: "percentage",
        percentage_rate: "10",
        frequency: "once",
        expiration: "no_expiration",
      },
    }),
  );
  walletId = (
    await ok(
      asA("POST", "/wallets", {
        wallet: { external_customer_id: "cus_1", currency: "EUR", rate_amount: "1", granted_credits: "5" },
      }),
    )
  ).wallet.svc_id;
  endpointId = (
    await ok(asA("POST", "/webhook_endpoints", { webhook_endpoint: { webhook_url: "http://127.0.0.1:9/hooks" } }))
  ).webhook_endpoint.svc_id;
  usage = new RpcClient(Rpc.usage, `127.0.0.1:${e2e.platform.env.usage.GRPC_PORT}`);
});

afterAll(async () => {
  usage?.close();
  await e2e?.stop();
});

/** Bodies every JSON endpoint must refuse with 400: not JSON, no root key, a root that is no object. */
const shapeless = (root: string): Array<string | object> => [
  "{",
  "[]",
  "null",
  "{}",
  { [root]: "x" },
  { [root]: [] },
  { [root]: null },
  { [`${root}s`]: {} },
];

/** [method, path ({wallet} and {endpoint} are the seeded ones' ids), root key, invalid bodies beyond the shapeless ones] */
const CASES: Array<[string, string, string, object[]]> = [
  [
    "POST",
    "/customers",
    "customer",
    [
      { customer: { name: "No id" } },
      { customer: { external_id: "cus_new", currency: "EURO" } },
      { customer: { external_id: "cus_new", name: "Ok", country: "XX" } },
      { customer: { external_id: "cus_1", name: "Changed", currency: 42 } },
      { customer: { external_id: "cus_new", name: "Ok", tax_codes: ["nope"] } },
    ],
  ],
  [
    "POST",
    "/plans",
    "plan",
    [
      { plan: { name: "P", code: "p", interval: "hourly", amount_cents: 1, amount_currency: "EUR" } },
      { plan: { name: "P", code: "p", interval: "monthly", amount_cents: -1, amount_currency: "EUR" } },
      {
        plan: {
          name: "P",
          code: "p",
          interval: "monthly",
          amount_cents: 1,
          amount_currency: "EUR",
          charges: [{ billable_metric_code: "nope", charge_model: "standard", properties: { amount: "1" } }],
        },
      },
      { plan: { name: "P", code: "basic", interval: "monthly", amount_cents: 1, amount_currency: "EUR" } },
    ],
  ],
  [
    "PUT",
    "/plans/basic",
    "plan",
    [{ plan: { amount_cents: -1 } }, { plan: { interval: "hourly" } }, { plan: { name: 42 } }],
  ],
  [
    "POST",
    "/billable_metrics",
    "billable_metric",
    [
      { billable_metric: { name: "M", code: "m", aggregation_type: "nope" } },
      { billable_metric: { name: "M", code: "m", aggregation_type: "sum_agg" } },
      { billable_metric: { name: "M", code: "calls", aggregation_type: "count_agg" } },
      { billable_metric: { name: "M", code: "m", aggregation_type: "count_agg", expression: "((" } },
    ],
  ],
  [
    "PUT",
    "/billable_metrics/calls",
    "billable_metric",
    [{ billable_metric: { aggregation_type: "nope" } }, { billable_metric: { rounding_precision: 1.5 } }],
  ],
  [
    "POST",
    "/coupons",
    "coupon",
    [
      { coupon: { name: "C", code: "c", coupon_type: "percentage", frequency: "once", expiration: "no_expiration" } },
      {
        coupon: {
          name: "C",
          code: "c",
          coupon_type: "fixed_amount",
          amount_cents: 0,
          amount_currency: "EUR",
          frequency: "once",
          expiration: "no_expiration",
        },
      },
      {
        coupon: {
          name: "C",
          code: "c",
          coupon_type: "percentage",
          percentage_rate: "10",
          frequency: "once",
          expiration: "no_expiration",
          applies_to: { plan_codes: ["nope"] },
        },
      },
      {
        coupon: {
          name: "C",
          code: "ten",
          coupon_type: "percentage",
          percentage_rate: "5",
          frequency: "once",
          expiration: "no_expiration",
        },
      },
    ],
  ],
  [
    "PUT",
    "/coupons/ten",
    "coupon",
    [{ coupon: { percentage_rate: "abc" } }, { coupon: { applies_to: { plan_codes: ["nope"] } } }],
  ],
  [
    "POST",
    "/add_ons",
    "add_on",
    [
      { add_on: { name: "A", code: "a", amount_cents: -5, amount_currency: "EUR" } },
      { add_on: { name: "A", code: "a", amount_cents: 5, amount_currency: "EURO" } },
      { add_on: { name: "A", code: "a", amount_cents: 5, amount_currency: "EUR", tax_codes: ["nope"] } },
    ],
  ],
  ["PUT", "/add_ons/setup", "add_on", [{ add_on: { amount_currency: "EURO" } }, { add_on: { tax_codes: ["nope"] } }]],
  [
    "POST",
    "/taxes",
    "tax",
    [
      { tax: { name: "T", code: "t", rate: "abc" } },
      { tax: { name: "T", code: "vat", rate: "1" } },
      { tax: { code: "t", rate: "1" } },
    ],
  ],
  ["PUT", "/taxes/vat", "tax", [{ tax: { rate: "abc" } }, { tax: { name: "" } }]],
  [
    "POST",
    "/subscriptions",
    "subscription",
    [
      { subscription: { external_customer_id: "cus_1", plan_code: "nope", external_id: "sub_2" } },
      { subscription: { external_customer_id: "", plan_code: "basic", external_id: "sub_2" } },
      { subscription: { external_customer_id: "cus_1", plan_code: "basic", external_id: "" } },
      {
        subscription: {
          external_customer_id: "cus_1",
          plan_code: "basic",
          external_id: "sub_2",
          subscription_at: "not a date",
        },
      },
      {
        subscription: {
          external_customer_id: "cus_1",
          plan_code: "basic",
          external_id: "sub_2",
          billing_time: "sometimes",
        },
      },
    ],
  ],
  [
    "PUT",
    "/subscriptions/sub_1",
    "subscription",
    [{ subscription: { ending_at: "not a date" } }, { subscription: { name: 42 } }],
  ],
  [
    "POST",
    "/wallets",
    "wallet",
    [
      { wallet: { external_customer_id: "nobody_has_this_id", currency: "EUR", rate_amount: "1" } },
      { wallet: { external_customer_id: "cus_1", currency: "EUR", rate_amount: "0" } },
      { wallet: { external_customer_id: "cus_1", currency: "EUR", rate_amount: "1", granted_credits: "-5" } },
      { wallet: { external_customer_id: "cus_1", currency: "USD", rate_amount: "1" } },
    ],
  ],
  [
    "PUT",
    "/wallets/{wallet}",
    "wallet",
    [{ wallet: { priority: "high" } }, { wallet: { expiration_at: "not a date" } }],
  ],
  [
    "POST",
    "/payments",
    "payment",
    [
      { payment: { invoice_id: "00000000-0000-4000-8000-000000000000", amount_cents: 100, reference: "r" } },
      { payment: { invoice_id: "x", amount_cents: -1, reference: "r" } },
      { payment: { invoice_id: "x", amount_cents: 100 } },
    ],
  ],
  [
    "POST",
    "/webhook_endpoints",
    "webhook_endpoint",
    [
      { webhook_endpoint: { webhook_url: "" } },
      { webhook_endpoint: { webhook_url: "not a url" } },
      { webhook_endpoint: { webhook_url: "http://127.0.0.1:9/other", signature_algo: "md5" } },
    ],
  ],
  [
    "PUT",
    "/webhook_endpoints/{endpoint}",
    "webhook_endpoint",
    [{ webhook_endpoint: { webhook_url: "" } }, { webhook_endpoint: { webhook_url: "ftp://x" } }],
  ],
];

describe("every refused request stores nothing", () => {
  for (const [method, template, root, invalid] of CASES) {
    it(`${method} ${template}: each invalid body is refused 4xx and every list reads the same`, async () => {
      const path = () => template.replace("{wallet}", walletId).replace("{endpoint}", endpointId);
      const before = await snapshot();
      for (const body of [...shapeless(root), ...invalid]) {
        const raw = typeof body === "string" ? body : JSON.stringify(body);
        const res = await asA(method, path(), undefined, { raw });
        expect(res.status, `${method} ${path()} ${raw} → ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path()} ${raw} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        expect(await snapshot(), `after ${method} ${path()} ${raw}`).toEqual(before);
      }
    });
  }

  it("POST /events and /events/batch: refused events are not counted, a valid one after them is", async () => {
    const event = (tx: string, extra: object = {}) => ({
      transaction_id: tx,
      external_subscription_id: "sub_1",
      code: "calls",
      ...extra,
    });
    const refused: Array<[string, string | object]> = [
      ...shapeless("event").map((b) => ["/events", b] as [string, string | object]),
      ["/events", { event: { external_subscription_id: "sub_1", code: "calls" } }],
      ["/events", { event: event("tx_bad_ts", { timestamp: "yesterday" }) }],
      ["/events", { event: event("tx_bad_props", { properties: "x" }) }],
      ["/events", { event: event("", {}) }],
      ["/events/batch", { events: [] }],
      ["/events/batch", { events: [event("tx_b1"), event("tx_b2", { timestamp: "yesterday" })] }],
      ["/events/batch", { events: Array.from({ length: 101 }, (_, i) => event(`tx_many_${i}`)) }],
    ];
    for (const [path, body] of refused) {
      const raw = typeof body === "string" ? body : JSON.stringify(body);
      const res = await asA("POST", path, undefined, { raw });
      expect(res.status, `${path} ${raw.slice(0, 200)} → ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${raw.slice(0, 200)}`).toBeLessThan(500);
    }
    await ok(asA("POST", "/events", { event: event("tx_ok") }));
    const count = () =>
      usage
        .call("Aggregate", {
          organization_id: org.organization_id,
          external_subscription_id: "sub_1",
          code: "calls",
          from: "2000-01-01T00:00:00Z",
          to: "2100-01-01T00:00:00Z",
        })
        .then((r) => r.events_count);
    await waitFor(async () => (await count()) >= 1 || undefined, {
      what: "the valid event, stored",
      timeoutMs: 20_000,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await count()).toBe(1);
  });
});
