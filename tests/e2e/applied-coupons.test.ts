import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rpc, type CatalogRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import { startE2E, type E2E } from "../support/platform";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";

let e2e: E2E;
let catalog: RpcClient<CatalogRpc["appliedCoupons"]>;
let orgA: { organization_id: string; api_key: string };
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("applied_coupons");
  orgA = await e2e.organization("Acme Corp");
  asA = api(e2e.platform.baseUrl, orgA.api_key);
  asB = api(e2e.platform.baseUrl, (await e2e.organization("Globex")).api_key);
  const address = `127.0.0.1:${e2e.platform.env.catalog.GRPC_PORT}`;
  catalog = new RpcClient(Rpc.catalog.appliedCoupons, address);
});

afterAll(async () => {
  catalog?.close();
  await e2e?.stop();
});

const unprocessable = (error_details: Record<string, string[]>) => ({
  status: 422,
  body: { status: 422, error: "Unprocessable Entity", code: "validation_errors", error_details },
});
const notFound = (code: string) => ({ status: 404, body: { status: 404, error: "Not Found", code } });
const coupon = (code: string, extra: Record<string, unknown> = {}) => ({
  coupon: {
    name: code,
    code,
    coupon_type: "fixed_amount",
    amount_cents: 5000,
    amount_currency: "USD",
    frequency: "once",
    expiration: "no_expiration",
    ...extra,
  },
});
const applyTo = (external_customer_id: string, coupon_code: string, extra: Record<string, unknown> = {}) => ({
  applied_coupon: { external_customer_id, coupon_code, ...extra },
});
const total = async () => (await asA("GET", "/applied_coupons")).body.meta.total_count;
let startupId = "";

describe("applied coupons end to end", () => {
  it("applies coupons in Lago's shape, giving a fixed amount's currency to the customer", async () => {
    expect((await asA("POST", "/customers", { customer: { external_id: "cust_1" } })).status).toBe(200);
    expect((await asA("POST", "/coupons", coupon("startup", { reusable: false }))).status).toBe(200);
    expect(
      (await asA("POST", "/coupons", coupon("ten", { coupon_type: "percentage", percentage_rate: "10" }))).status,
    ).toBe(200);

    const applied = await asA("POST", "/applied_coupons", applyTo("cust_1", "startup"));
    expect(applied.status).toBe(200);
    expect(openapiErrors("AppliedCoupon", applied.body)).toEqual([]);
    expect(applied.body.applied_coupon).toMatchObject({
      coupon_code: "startup",
      coupon_name: "startup",
      external_customer_id: "cust_1",
      status: "active",
      frequency: "once",
      coupon_status: "active",
      coupon_deleted_at: null,
      amount_cents: 5000,
      amount_cents_remaining: 5000,
      amount_currency: "USD",
      percentage_rate: null,
      frequency_duration: null,
      frequency_duration_remaining: null,
      expiration_at: null,
      terminated_at: null,
    });
    expect(applied.body.applied_coupon).not.toHaveProperty("credits");
    startupId = applied.body.applied_coupon.svc_id;
    expect((await asA("GET", "/customers/cust_1")).body.customer.currency).toBe("USD");

    const pct = await asA(
      "POST",
      "/applied_coupons",
      applyTo("cust_1", "ten", { percentage_rate: "12.5", frequency: "recurring", frequency_duration: 2 }),
    );
    expect(openapiErrors("AppliedCoupon", pct.body)).toEqual([]);
    expect(pct.body.applied_coupon).toMatchObject({
      percentage_rate: "12.5",
      frequency: "recurring",
      frequency_duration_remaining: 2,
      amount_cents_remaining: null,
    });
  });

  it("refuses what Lago refuses, storing nothing", async () => {
    const before = await total();
    expect(await asA("POST", "/applied_coupons", { coupon: {} })).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: param is missing or the value is empty: applied_coupon" },
    });
    expect(await asA("POST", "/applied_coupons", { applied_coupon: {} })).toEqual(
      unprocessable({ external_customer_id: ["value_is_mandatory"], coupon_code: ["value_is_mandatory"] }),
    );
    const bad = { amount_cents: -1, amount_currency: "EURO", frequency: "weekly", percentage_rate: "abc" };
    expect(await asA("POST", "/applied_coupons", applyTo("cust_1", "ten", bad))).toEqual(
      unprocessable({
        amount_cents: ["value_is_out_of_range"],
        amount_currency: ["value_is_invalid"],
        frequency: ["value_is_invalid"],
        percentage_rate: ["value_is_invalid"],
      }),
    );
    expect(await asA("POST", "/applied_coupons", applyTo("cust_1", "ten", { frequency: "recurring" }))).toEqual(
      unprocessable({ frequency_duration: ["value_is_mandatory"] }),
    );
    expect(await asA("POST", "/applied_coupons", applyTo("nobody", "ten"))).toEqual(notFound("customer_not_found"));
    expect(await asA("POST", "/applied_coupons", applyTo("cust_1", "nope"))).toEqual(notFound("coupon_not_found"));
    expect(await asA("POST", "/applied_coupons", applyTo("cust_1", "startup"))).toEqual(
      unprocessable({ coupon: ["coupon_is_not_reusable"] }),
    );
    expect(await total()).toBe(before);
  });

  it("checks plan limitations: unknown plans (404) and overlapping coupons (405)", async () => {
    expect(await asA("POST", "/coupons", coupon("on_basic", { applies_to: { plan_codes: ["basic"] } }))).toEqual(
      notFound("plans_not_found"),
    );
    const plan = {
      name: "Basic",
      code: "basic",
      interval: "monthly",
      amount_cents: 1000,
      amount_currency: "USD",
      pay_in_advance: false,
    };
    expect((await asA("POST", "/plans", { plan })).status).toBe(200);
    for (const code of ["on_basic", "also_basic"])
      expect((await asA("POST", "/coupons", coupon(code, { applies_to: { plan_codes: ["basic"] } }))).status).toBe(200);
    expect((await asA("POST", "/applied_coupons", applyTo("cust_1", "on_basic"))).status).toBe(200);
    expect(await asA("POST", "/applied_coupons", applyTo("cust_1", "also_basic"))).toEqual({
      status: 405,
      body: { status: 405, error: "Method Not Allowed", code: "plan_overlapping" },
    });
  });

  it("lists newest first with filters and credits, bracketed arrays plain or percent-encoded", async () => {
    await catalog.call("ConsumeAppliedCoupon", {
      organization_id: orgA.organization_id,
      applied_coupon_id: startupId,
      invoice_id: "7a1b2c3d-0000-4000-8000-000000000001",
      amount_cents: 1200,
      amount_currency: "USD",
    });
    const list = await asA("GET", "/applied_coupons");
    expect(list.status).toBe(200);
    expect(openapiErrors("AppliedCouponsPaginated", list.body)).toEqual([]);
    expect(list.body.applied_coupons.map((a: { coupon_code: string }) => a.coupon_code)).toEqual([
      "on_basic",
      "ten",
      "startup",
    ]);
    expect(list.body.applied_coupons[2]).toMatchObject({
      amount_cents_remaining: 3800,
      credits: [
        {
          amount_cents: 1200,
          amount_currency: "USD",
          before_taxes: true,
          item: { type: "coupon", code: "startup", name: "startup" },
          invoice: { payment_status: "pending" },
        },
      ],
    });
    expect(list.body.applied_coupons[0].credits).toEqual([]);
    const codes = async (query: string) =>
      (await asA("GET", `/applied_coupons?${query}`)).body.applied_coupons.map(
        (a: { coupon_code: string }) => a.coupon_code,
      );
    expect(await codes("coupon_code[]=startup&coupon_code[]=ten")).toEqual(["ten", "startup"]);
    expect(await codes("coupon_code%5B%5D=ten")).toEqual(["ten"]);
    expect(await codes("external_customer_id=nobody")).toEqual([]);
    expect(await codes("external_customer_id=cust_1&status=active&per_page=1&page=3")).toEqual(["startup"]);
  });

  it("terminates an applied coupon under its customer's path", async () => {
    expect(await asA("DELETE", `/customers/nobody/applied_coupons/${startupId}`)).toEqual(
      notFound("customer_not_found"),
    );
    expect(await asA("DELETE", "/customers/cust_1/applied_coupons/00000000-0000-4000-8000-000000000000")).toEqual(
      notFound("applied_coupon_not_found"),
    );
    const deleted = await asA("DELETE", `/customers/cust_1/applied_coupons/${startupId}`);
    expect(deleted.status).toBe(200);
    expect(openapiErrors("AppliedCoupon", deleted.body)).toEqual([]);
    expect(deleted.body.applied_coupon).toMatchObject({
      svc_id: startupId,
      status: "terminated",
      terminated_at: expect.any(String),
    });
    const terminated = await asA("GET", "/applied_coupons?status=terminated");
    expect(terminated.body.applied_coupons.map((a: { svc_id: string }) => a.svc_id)).toEqual([startupId]);
  });

  it("shows a second organization nothing and lets it touch nothing", async () => {
    expect(await asB("GET", "/applied_coupons")).toEqual({
      status: 200,
      body: {
        applied_coupons: [],
        meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 },
      },
    });
    expect(await asB("DELETE", `/customers/cust_1/applied_coupons/${startupId}`)).toEqual(
      notFound("customer_not_found"),
    );
    expect((await asB("POST", "/customers", { customer: { external_id: "cust_1" } })).status).toBe(200);
    expect(await asB("DELETE", `/customers/cust_1/applied_coupons/${startupId}`)).toEqual(
      notFound("applied_coupon_not_found"),
    );
    expect(await asB("POST", "/applied_coupons", applyTo("cust_1", "ten"))).toEqual(notFound("coupon_not_found"));
    expect((await asB("GET", "/applied_coupons?external_customer_id=cust_1")).body.applied_coupons).toEqual([]);
  });
});
