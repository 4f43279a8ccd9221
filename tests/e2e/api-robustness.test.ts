import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rpc, type UsageRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import { repoRoot, waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { startE2E, type E2E } from "../support/platform";

/**
 * Requests that used to answer 500 or mislead: undecodable path parameters, bodies nested
 * thousands of levels deep, unknown routes, empty lists' pages, a missing customer's subscriptions.
 */
let e2e: E2E;
let usage: RpcClient<UsageRpc>;
let org: { organization_id: string; api_key: string };
let asA: ReturnType<typeof api>;
let asEmpty: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("api_robustness");
  org = await e2e.organization("Acme");
  asA = api(e2e.platform.baseUrl, org.api_key);
  asEmpty = api(e2e.platform.baseUrl, (await e2e.organization("Empty")).api_key);
  expect(
    (
      await asA("POST", "/billable_metrics", {
        billable_metric: { name: "Calls", code: "calls", aggregation_type: "count_agg" },
      })
    ).status,
  ).toBe(200);
  usage = new RpcClient(Rpc.usage, `127.0.0.1:${e2e.platform.env.usage.GRPC_PORT}`);
  await waitFor(() => callsOf("sub_deep").then(() => true), {
    what: "the usage service's copy of the metric",
    timeoutMs: 20_000,
  });
});

afterAll(async () => {
  usage?.close();
  await e2e?.stop();
});

const callsOf = (sub: string) =>
  usage.call("Aggregate", {
    organization_id: org.organization_id,
    external_subscription_id: sub,
    code: "calls",
    from: "2000-01-01T00:00:00Z",
    to: "2100-01-01T00:00:00Z",
  });

/** A raw request: status, X-Request-Id and the body as text (parsed when JSON). */
async function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${e2e.platform.baseUrl}/api/v1${path}`, {
    method,
    body,
    headers: { authorization: `Bearer ${org.api_key}`, "content-type": "application/json", ...headers },
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, requestId: res.headers.get("x-request-id"), text, json };
}

/** The gateway's log lines (JSON), from the file the platform writes them to. */
function gatewayLog(): Array<Record<string, unknown>> {
  const file = join(repoRoot(), ".infra", "logs", e2e.platform.env.usage.DURABLE_PREFIX!, "gateway.log");
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const requestLine = (requestId: string) =>
  waitFor(() => gatewayLog().find((l) => l.msg === "request" && l.request_id === requestId), {
    what: `the request line of ${requestId}`,
  });

/** Every route with path parameters (`:p` is replaced); PUT, POST and PATCH send `{}`. */
const PARAM_ROUTES: Array<[method: string, path: string]> = [
  ["GET", "/customers/:p"],
  ["DELETE", "/customers/:p"],
  ["GET", "/customers/:p/subscriptions"],
  ["GET", "/customers/:p/applied_coupons"],
  ["DELETE", "/customers/:p/applied_coupons/:p"],
  ["GET", "/customers/:p/current_usage?external_subscription_id=s"],
  ["GET", "/customers/:p/past_usage?external_subscription_id=s"],
  ["GET", "/billing_entities/:p"],
  ["PUT", "/billing_entities/:p"],
  ["GET", "/taxes/:p"],
  ["PUT", "/taxes/:p"],
  ["DELETE", "/taxes/:p"],
  ["GET", "/billable_metrics/:p"],
  ["PUT", "/billable_metrics/:p"],
  ["DELETE", "/billable_metrics/:p"],
  ["GET", "/add_ons/:p"],
  ["GET", "/coupons/:p"],
  ["GET", "/invoice_custom_sections/:p"],
  ["GET", "/plans/:p"],
  ["PUT", "/plans/:p"],
  ["DELETE", "/plans/:p"],
  ["GET", "/plans/:p/entitlements"],
  ["POST", "/plans/:p/entitlements"],
  ["PATCH", "/plans/:p/entitlements"],
  ["GET", "/plans/:p/entitlements/:p"],
  ["DELETE", "/plans/:p/entitlements/:p"],
  ["DELETE", "/plans/:p/entitlements/:p/privileges/:p"],
  ["GET", "/features/:p"],
  ["PUT", "/features/:p"],
  ["DELETE", "/features/:p"],
  ["DELETE", "/features/:p/privileges/:p"],
  ["GET", "/subscriptions/:p"],
  ["PUT", "/subscriptions/:p"],
  ["DELETE", "/subscriptions/:p"],
  ["GET", "/subscriptions/:p/entitlements"],
  ["GET", "/invoices/:p"],
  ["PUT", "/invoices/:p"],
  ["PUT", "/invoices/:p/finalize"],
  ["PUT", "/invoices/:p/refresh"],
  ["POST", "/invoices/:p/retry_payment"],
  ["GET", "/wallets/:p"],
  ["PUT", "/wallets/:p"],
  ["DELETE", "/wallets/:p"],
  ["GET", "/wallets/:p/wallet_transactions"],
  ["GET", "/wallet_transactions/:p"],
  ["GET", "/payments/:p"],
  ["POST", "/sandbox/payments/:p/confirm"],
  ["GET", "/payment_requests/:p"],
  ["GET", "/webhook_endpoints/:p"],
  ["PUT", "/webhook_endpoints/:p"],
  ["DELETE", "/webhook_endpoints/:p"],
  ["GET", "/webhooks/:p"],
  ["POST", "/webhooks/:p/retry"],
];
const bodyFor = (method: string) => (method === "GET" || method === "DELETE" ? undefined : "{}");

describe("path parameters", () => {
  it("answers a malformed percent-encoding 400, Lago's bad request, on every route", async () => {
    for (const bad of ["%ff", "%E0%A4%A", "%ED%A0%80", "%C0%80", "abc%"]) {
      for (const [method, template] of PARAM_ROUTES) {
        const res = await raw(method, template.replaceAll(":p", bad), bodyFor(method));
        expect({ route: `${method} ${template} (${bad})`, status: res.status, body: res.json }).toEqual({
          route: `${method} ${template} (${bad})`,
          status: 400,
          body: { status: 400, error: "BadRequest: malformed percent-encoding in the URL path" },
        });
      }
    }
    // authentication still comes first
    expect((await raw("GET", "/customers/%ff", undefined, { authorization: "Bearer nope" })).status).toBe(401);
  });

  it("answers NUL bytes, 10,000-character segments and other odd values without a server error, in JSON", async () => {
    for (const odd of ["%00", "a%00b", "x".repeat(10_000), "%F0%9F%98%80", "%2F", "%24where", "%20", "%25"]) {
      for (const [method, template] of PARAM_ROUTES) {
        // the first parameter takes the odd value (three of 10,000 characters would pass node's 16 KB header limit)
        const res = await raw(method, template.replace(":p", odd).replaceAll(":p", "x"), bodyFor(method));
        const label = `${method} ${template} (${odd.slice(0, 12)})`;
        expect({ label, status: res.status < 500, json: res.json !== undefined }).toEqual({
          label,
          status: true,
          json: true,
        });
      }
    }
    expect(await asA("GET", "/customers/a%00b")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
    expect(await asA("GET", `/customers/${"x".repeat(10_000)}`)).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
  });
});

describe("deeply nested bodies", () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
  const event = (tx: string, properties: string) =>
    `{"transaction_id":"${tx}","external_subscription_id":"sub_deep","code":"calls","properties":${properties}}`;
  const tooDeep = { status: 422, error: "Unprocessable Entity", code: "validation_errors" };

  it("refuses event properties nested deeper than 32 levels with 422 value_is_too_deep, stores nothing, and logs the request", async () => {
    const single = await raw("POST", "/events", `{"event":${event("deep_1", nested(4_500))}}`, {
      "x-request-id": "deep-single",
    });
    expect({ status: single.status, body: single.json }).toEqual({
      status: 422,
      body: { ...tooDeep, error_details: { properties: ["value_is_too_deep"] } },
    });
    const batch = await raw(
      "POST",
      "/events/batch",
      `{"events":[${event("deep_2", "{}")},${event("deep_3", nested(4_500))}]}`,
      { "x-request-id": "deep-batch" },
    );
    expect({ status: batch.status, body: batch.json }).toEqual({
      status: 422,
      body: { ...tooDeep, error_details: { 1: { properties: ["value_is_too_deep"] } } },
    });
    const estimate = await raw("POST", "/events/estimate_fees", `{"event":${event("deep_4", nested(4_500))}}`, {
      "x-request-id": "deep-estimate",
    });
    expect({ status: estimate.status, body: estimate.json }).toEqual({
      status: 422,
      body: { ...tooDeep, error_details: { properties: ["value_is_too_deep"] } },
    });
    expect((await raw("POST", "/events", `{"event":${event("deep_5", nested(33))}}`)).status).toBe(422);

    for (const id of ["deep-single", "deep-batch", "deep-estimate"]) {
      expect(await requestLine(id)).toMatchObject({ level: "info", method: "POST", status: 422 });
    }

    // nothing of the refused requests was stored: their transaction ids are still free, and only the accepted events count
    const accepted = await raw(
      "POST",
      "/events/batch",
      `{"events":[${event("deep_1", "{}")},${event("deep_2", "{}")},${event("deep_3", nested(32))}]}`,
    );
    expect(accepted.status).toBe(200);
    await waitFor(async () => (await callsOf("sub_deep")).events_count === 3 || undefined, {
      what: "the three accepted events, stored",
    });
    expect((await callsOf("sub_deep")).units).toBe("3");
  });

  it("refuses any other body nested deeper than 64 levels with a 400 naming the limit, and logs it", async () => {
    const deep = await raw(
      "POST",
      "/customers",
      `{"customer":{"external_id":"deep","name":"n","metadata":${nested(4_500)}}}`,
      { "x-request-id": "deep-customer" },
    );
    expect({ status: deep.status, body: deep.json }).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: JSON nested deeper than 64 levels" },
    });
    expect(await requestLine("deep-customer")).toMatchObject({
      level: "info",
      method: "POST",
      path: "/api/v1/customers",
      status: 400,
    });
    const justOver = await raw(
      "POST",
      "/features",
      `{"feature":{"code":"deep","privileges":[{"code":"p","value_type":"string","config":${nested(61)}}]}}`,
    );
    expect(justOver.status).toBe(400);
    // within the limit, the body reaches its validation
    const within = await raw(
      "POST",
      "/features",
      `{"feature":{"code":"deep","privileges":[{"code":"p","value_type":"string","config":${nested(60)}}]}}`,
    );
    expect(within.status).not.toBe(400);
    expect(within.status).toBeLessThan(500);
    expect((await asA("GET", "/customers/deep")).status).toBe(404);
  });
});

describe("unknown routes and missing records", () => {
  it("answers an unknown route 404 route_not_found with its method and path, a missing record <resource>_not_found", async () => {
    const noSuchRoute = { unchecked: "a route that does not exist: no document has it" };
    expect(await asA("GET", "/no_such_route", undefined, noSuchRoute)).toEqual({
      status: 404,
      body: {
        status: 404,
        error: "Not Found",
        code: "route_not_found",
        message: "No route matches GET /api/v1/no_such_route",
      },
    });
    expect(await asA("PATCH", "/customers/cust_1", {}, noSuchRoute)).toEqual({
      status: 404,
      body: {
        status: 404,
        error: "Not Found",
        code: "route_not_found",
        message: "No route matches PATCH /api/v1/customers/cust_1",
      },
    });
    expect(await asA("GET", "/customers/cust_1")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
    expect(await asA("GET", "/taxes/none")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "tax_not_found" },
    });
    const long = await asA("GET", `/nothing/${"a".repeat(5_000)}`, undefined, noSuchRoute);
    expect(long.status).toBe(404);
    expect(long.body.code).toBe("route_not_found");
    expect(long.body.message.length).toBeLessThan(300);
  });
});

describe("dates that do not exist", () => {
  it("are refused 422 invalid_date, not a server error (found by the fuzzer on GET /credit_notes and POST simulate_plan)", async () => {
    expect((await asA("POST", "/customers", { customer: { external_id: "cust_dates", name: "Dates" } })).status).toBe(
      200,
    );
    for (const [method, path, body] of [
      ["GET", "/credit_notes?issuing_date_to=5038-00-28", undefined],
      ["GET", "/invoices?issuing_date_from=2023-02-29", undefined],
      ["POST", "/customers/cust_dates/simulate_plan", { plan_code: "basic", from: "0058-50-02" }],
    ] as const) {
      const answer = await asA(method, path, body);
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({
        path,
        status: 422,
        code: "validation_errors",
      });
    }
  });
});

describe("search terms", () => {
  it("match a NUL byte literally, not a server error (found by the fuzzer on GET /credit_notes)", async () => {
    const answer = await asA("GET", "/credit_notes?search_term=%004");
    expect({ status: answer.status, count: answer.body.meta?.total_count }).toEqual({ status: 200, count: 0 });
  });
});

describe("empty lists", () => {
  it("report page 1 of 0 pages", async () => {
    const empty = { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 };
    for (const [path, key] of [
      ["/customers", "customers"],
      ["/taxes", "taxes"],
      ["/billable_metrics", "billable_metrics"],
      ["/add_ons", "add_ons"],
      ["/coupons", "coupons"],
      ["/plans", "plans"],
      ["/subscriptions", "subscriptions"],
      ["/applied_coupons", "applied_coupons"],
      ["/features", "features"],
      ["/invoice_custom_sections", "invoice_custom_sections"],
      ["/invoices", "invoices"],
      ["/payments", "payments"],
      ["/payment_requests", "payment_requests"],
      ["/webhook_endpoints", "webhook_endpoints"],
    ] as const) {
      expect({ path, ...(await asEmpty("GET", path)) }).toEqual({
        path,
        status: 200,
        body: { [key]: [], meta: empty },
      });
    }
    // a page past the end of an empty list is that page, with no neighbours
    expect((await asEmpty("GET", "/customers?page=3")).body.meta).toEqual({ ...empty, current_page: 3 });
  });
});

describe("a customer's subscriptions and applied coupons", () => {
  it("answers 404 customer_not_found for a customer the organization does not have, the list otherwise", async () => {
    expect(await asA("GET", "/customers/nobody/subscriptions")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
    expect(await asA("GET", "/customers/nobody/applied_coupons")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
    expect((await asA("POST", "/customers", { customer: { external_id: "cust_subs", name: "Subs" } })).status).toBe(
      200,
    );
    expect(await asA("GET", "/customers/cust_subs/subscriptions")).toEqual({
      status: 200,
      body: {
        subscriptions: [],
        meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 },
      },
    });
    expect((await asA("GET", "/customers/cust_subs/applied_coupons")).body).toEqual({
      applied_coupons: [],
      meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 },
    });
    // another organization's customer is not this one's
    expect(await asEmpty("GET", "/customers/cust_subs/subscriptions")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
    expect(await asEmpty("GET", "/customers/cust_subs/applied_coupons")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
  });
});

describe("billable metrics' recurring: null (found by tests/fuzz/run.mjs)", () => {
  it("is false, not a server error, on create and on update", async () => {
    const body = {
      name: "Nullable",
      code: "nullable",
      aggregation_type: "count_agg",
      recurring: null,
      field_name: "",
      expression: "",
    };
    const created = await asA("POST", "/billable_metrics", { billable_metric: body });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.billable_metric).toMatchObject({ code: "nullable", recurring: false, expression: null });
    const updated = await asA("PUT", "/billable_metrics/nullable", { billable_metric: { recurring: null } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.billable_metric.recurring).toBe(false);
  });
});

describe("applied_to_organization: null (found by tests/fuzz/run.mjs: a plan taxed by such a tax answered 500)", () => {
  it("is false on a tax and an invoice custom section, and a plan can be taxed by that tax", async () => {
    const tax = await asA("POST", "/taxes", {
      tax: { name: "Null flag", code: "null_flag", rate: "5", applied_to_organization: null },
    });
    expect(tax.status, JSON.stringify(tax.body)).toBe(200);
    expect(tax.body.tax.applied_to_organization).toBe(false);
    const updated = await asA("PUT", "/taxes/null_flag", { tax: { applied_to_organization: null } });
    expect({ status: updated.status, flag: updated.body.tax?.applied_to_organization }).toEqual({
      status: 200,
      flag: false,
    });
    const plan = await asA("POST", "/plans", {
      plan: {
        name: "Taxed",
        code: "taxed_null_flag",
        interval: "monthly",
        amount_cents: 100,
        amount_currency: "EUR",
        pay_in_advance: false,
        tax_codes: ["null_flag"],
      },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const commitment = await asA("PUT", "/plans/taxed_null_flag", {
      plan: { minimum_commitment: { amount_cents: 50, tax_codes: ["null_flag"] } },
    });
    expect(commitment.status, JSON.stringify(commitment.body)).toBe(200);
    expect(commitment.body.plan.minimum_commitment.taxes.map((t: { code: string }) => t.code)).toEqual(["null_flag"]);
    const section = await asA("POST", "/invoice_custom_sections", {
      invoice_custom_section: {
        name: "Null flag",
        code: "null_flag_section",
        display_name: "Note",
        details: "d",
        applied_to_organization: null,
      },
    });
    expect({ status: section.status, flag: section.body.invoice_custom_section?.applied_to_organization }).toEqual({
      status: 200,
      flag: false,
    });
  });
});
