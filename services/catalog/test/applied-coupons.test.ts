import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appliedCouponView } from "../src/domain/applied-coupon-view";
import type { TermOverrides } from "../src/domain/applied-coupon-rules";
import { createAppliedCoupon } from "../src/use-cases/applied-coupons/create-applied-coupon";
import { listActiveAppliedCoupons } from "../src/use-cases/applied-coupons/list-active-applied-coupons";
import { listAppliedCoupons } from "../src/use-cases/applied-coupons/list-applied-coupons";
import { terminateAppliedCoupon } from "../src/use-cases/applied-coupons/terminate-applied-coupon";
import { createBillableMetric } from "../src/use-cases/billable-metrics/create-billable-metric";
import { createCoupon } from "../src/use-cases/coupons/create-coupon";
import { terminateCoupon } from "../src/use-cases/coupons/terminate-coupon";
import { updateCoupon } from "../src/use-cases/coupons/update-coupon";
import { createPlan } from "../src/use-cases/plans/create-plan";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_applied_coupons")));
afterAll(() => h.close());

const fixed = {
  name: "Startup",
  code: "startup",
  coupon_type: "fixed_amount",
  amount_cents: 5000,
  amount_currency: "USD",
  frequency: "once",
  expiration: "no_expiration",
};
const apply = (org: string, customer: string, code: string, overrides: TermOverrides = {}) =>
  createAppliedCoupon(h.deps, org, { external_customer_id: customer, coupon_code: code, overrides });
const view = async (p: ReturnType<typeof apply>) => appliedCouponView(await p);
const page = { page: 1, perPage: 100 };
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => ({ kind: e.kind, code: e.code, details: e.details }),
  );

describe("applying coupons", () => {
  it("applies a coupon with its values, gives its currency to a customer without one, in Lago's view", async () => {
    const org = h.org();
    const customer = h.customers.add(org, "cust_1");
    const { coupon } = await createCoupon(h.deps, org, { patch: fixed });
    const applied = await view(apply(org, "cust_1", "startup"));
    expect(applied).toMatchObject({
      svc_coupon_id: coupon.id,
      coupon_code: "startup",
      coupon_name: "Startup",
      svc_customer_id: customer.id,
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
      created_at: h.clock.now().toISOString(),
      credits: [],
    });
    expect((await h.customers.find(org, "cust_1"))?.currency).toBe("USD");
  });

  it("takes the client's overrides, null keeping the coupon's value", async () => {
    const org = h.org();
    h.customers.add(org, "cust_1", { currency: "EUR" });
    await createCoupon(h.deps, org, {
      patch: { ...fixed, code: "pct", coupon_type: "percentage", percentage_rate: "10" },
    });
    const applied = await view(
      apply(org, "cust_1", "pct", {
        percentage_rate: "12.5",
        frequency: "recurring",
        frequency_duration: 3,
        amount_cents: null,
      }),
    );
    expect(applied).toMatchObject({
      percentage_rate: "12.5",
      frequency: "recurring",
      frequency_duration: 3,
      frequency_duration_remaining: 3,
      amount_cents: null,
      amount_cents_remaining: null,
    });
    expect((await h.customers.find(org, "cust_1"))?.currency).toBe("EUR");
  });

  it("refuses unknown customers, unknown, terminated or expired coupons and bad overrides, storing nothing", async () => {
    const org = h.org();
    h.customers.add(org, "cust_1");
    await createCoupon(h.deps, org, { patch: fixed });
    await createCoupon(h.deps, org, {
      patch: { ...fixed, code: "soon", expiration: "time_limit", expiration_at: new Date("2026-02-01T00:00:00Z") },
    });
    await createCoupon(h.deps, org, { patch: { ...fixed, code: "gone" } });
    await terminateCoupon(h.deps, org, "gone");
    expect(await failure(apply(org, "nobody", "startup"))).toMatchObject({
      kind: "not_found",
      code: "customer_not_found",
    });
    for (const code of ["nope", "gone"])
      expect(await failure(apply(org, "cust_1", code))).toMatchObject({ code: "coupon_not_found" });
    expect(await failure(apply(org, "cust_1", "startup", { frequency: "recurring" }))).toMatchObject({
      details: { frequency_duration: ["value_is_mandatory"] },
    });
    expect(await failure(apply(org, "cust_1", "startup", { percentage_rate: "250" }))).toMatchObject({
      details: { percentage_rate: ["value_is_out_of_range"] },
    });
    h.clock.set("2026-02-01T00:00:00Z");
    try {
      expect(await failure(apply(org, "cust_1", "soon"))).toMatchObject({ code: "coupon_not_found" });
    } finally {
      h.clock.set("2026-01-15T10:00:00Z");
    }
    expect(await h.deps.appliedCoupons.list(org, {}, page)).toMatchObject({ total: 0 });
  });

  it("applies a non-reusable coupon once per customer, even under concurrency and after termination", async () => {
    const org = h.org();
    for (const c of ["a", "b"]) h.customers.add(org, c, { currency: "USD" });
    await createCoupon(h.deps, org, { patch: { ...fixed, reusable: false } });
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => failure(apply(org, "a", "startup"))));
    expect(outcomes.filter((o) => o === null)).toHaveLength(1);
    expect(outcomes.filter((o) => o !== null)).toEqual(
      Array(11).fill({
        kind: "unprocessable",
        code: "validation_errors",
        details: { coupon: ["coupon_is_not_reusable"] },
      }),
    );
    const { items } = await listAppliedCoupons(h.deps, org, { externalCustomerId: "a" }, page);
    await terminateAppliedCoupon(h.deps, org, "a", items[0]!.applied.id);
    expect(await failure(apply(org, "a", "startup"))).toMatchObject({
      details: { coupon: ["coupon_is_not_reusable"] },
    });
    await apply(org, "b", "startup");
    expect((await h.deps.appliedCoupons.list(org, {}, page)).total).toBe(2);
  });

  it("applies a reusable coupon as often as asked", async () => {
    const org = h.org();
    h.customers.add(org, "a", { currency: "USD" });
    await createCoupon(h.deps, org, { patch: fixed });
    await Promise.all([apply(org, "a", "startup"), apply(org, "a", "startup"), apply(org, "a", "startup")]);
    expect((await listActiveAppliedCoupons(h.deps, org, (await h.customers.find(org, "a"))!.id)).length).toBe(3);
  });

  it("refuses overlapping plan or metric limitations (405) while the other applied coupon is active", async () => {
    const org = h.org();
    h.customers.add(org, "a", { currency: "USD" });
    const metric = await createBillableMetric(h.deps, org, {
      name: "Calls",
      code: "calls",
      aggregation_type: "count_agg",
    });
    await createBillableMetric(h.deps, org, { name: "Other", code: "other", aggregation_type: "count_agg" });
    await createPlan(h.deps, org, {
      patch: {
        name: "Basic",
        code: "basic",
        interval: "monthly",
        amount_cents: 1000,
        amount_currency: "USD",
        pay_in_advance: false,
      },
      charges: [{ billable_metric_id: metric.id, charge_model: "standard", properties: { amount: "1" } }],
    });
    await createCoupon(h.deps, org, { patch: { ...fixed, code: "on_basic", plan_codes: ["basic"] } });
    await createCoupon(h.deps, org, { patch: { ...fixed, code: "on_basic_too", plan_codes: ["basic"] } });
    await createCoupon(h.deps, org, { patch: { ...fixed, code: "on_calls" }, billableMetricCodes: ["calls"] });
    await createCoupon(h.deps, org, { patch: { ...fixed, code: "on_other" }, billableMetricCodes: ["other"] });
    const first = await apply(org, "a", "on_basic");
    for (const code of ["on_basic_too", "on_calls", "on_basic"]) {
      expect(await failure(apply(org, "a", code))).toEqual({
        kind: "not_allowed",
        code: "plan_overlapping",
        details: undefined,
      });
    }
    await apply(org, "a", "on_other");
    expect(await failure(apply(org, "a", "on_other"))).toMatchObject({ code: "plan_overlapping" });
    await terminateAppliedCoupon(h.deps, org, "a", first.applied.id);
    expect((await apply(org, "a", "on_calls")).coupon.code).toBe("on_calls");
  });
});

describe("reading and terminating applied coupons", () => {
  it("lists newest first with filters, scoped to the organization", async () => {
    const org = h.org();
    for (const c of ["a", "b"]) h.customers.add(org, c, { currency: "USD" });
    await createCoupon(h.deps, org, { patch: fixed });
    await createCoupon(h.deps, org, { patch: { ...fixed, code: "other" } });
    const ids: string[] = [];
    for (const [customer, code] of [
      ["a", "startup"],
      ["b", "startup"],
      ["a", "other"],
    ] as const) {
      h.clock.advance(1000);
      ids.push((await apply(org, customer, code)).applied.id);
    }
    await terminateAppliedCoupon(h.deps, org, "a", ids[0]!);
    const listed = async (query: Parameters<typeof listAppliedCoupons>[2], p = page) =>
      (await listAppliedCoupons(h.deps, org, query, p)).items.map((i) => i.applied.id);
    expect(await listed({})).toEqual([ids[2], ids[1], ids[0]]);
    expect(await listed({}, { page: 2, perPage: 1 })).toEqual([ids[1]]);
    expect(await listed({ status: "terminated" })).toEqual([ids[0]]);
    expect(await listed({ status: "whatever" })).toHaveLength(3);
    expect(await listed({ externalCustomerId: "a" })).toEqual([ids[2], ids[0]]);
    expect(await listed({ externalCustomerId: "nobody" })).toEqual([]);
    expect(await listed({ couponCodes: ["startup"] })).toEqual([ids[1], ids[0]]);
    expect(await listed({ couponCodes: ["startup", "other"], status: "active" })).toEqual([ids[2], ids[1]]);
    const stranger = h.org();
    h.customers.add(stranger, "a");
    expect((await listAppliedCoupons(h.deps, stranger, {}, page)).total).toBe(0);
    expect(await failure(terminateAppliedCoupon(h.deps, stranger, "a", ids[2]!))).toMatchObject({
      code: "applied_coupon_not_found",
    });
  });

  it("terminates once (the first date stays), under the customer's path only", async () => {
    const org = h.org();
    for (const c of ["a", "b"]) h.customers.add(org, c, { currency: "USD" });
    await createCoupon(h.deps, org, { patch: fixed });
    const { applied } = await apply(org, "a", "startup");
    expect(await failure(terminateAppliedCoupon(h.deps, org, "nobody", applied.id))).toMatchObject({
      code: "customer_not_found",
    });
    expect(await failure(terminateAppliedCoupon(h.deps, org, "b", applied.id))).toMatchObject({
      code: "applied_coupon_not_found",
    });
    const at = h.clock.now().toISOString();
    const first = appliedCouponView(await terminateAppliedCoupon(h.deps, org, "a", applied.id));
    h.clock.advance(60_000);
    const again = appliedCouponView(await terminateAppliedCoupon(h.deps, org, "a", applied.id));
    expect([first.status, first.terminated_at, again.terminated_at]).toEqual(["terminated", at, at]);
  });

  it("terminates a deleted coupon's applied coupons, still showing its code", async () => {
    const org = h.org();
    h.customers.add(org, "a", { currency: "USD" });
    await createCoupon(h.deps, org, { patch: fixed });
    await apply(org, "a", "startup");
    await terminateCoupon(h.deps, org, "startup");
    const [item] = (await listAppliedCoupons(h.deps, org, { couponCodes: ["startup"] }, page)).items;
    expect(appliedCouponView(item!)).toMatchObject({
      status: "terminated",
      coupon_code: "startup",
      coupon_status: "terminated",
      coupon_deleted_at: expect.any(String),
    });
  });
});

describe("coupon rules tied to plans and applied coupons", () => {
  it("refuses plan limitations naming unknown plans (404 plans_not_found, as Lago answers)", async () => {
    const org = h.org();
    await createPlan(h.deps, org, {
      patch: {
        name: "Basic",
        code: "basic",
        interval: "monthly",
        amount_cents: 1000,
        amount_currency: "USD",
        pay_in_advance: false,
      },
    });
    expect(
      await failure(createCoupon(h.deps, org, { patch: { ...fixed, plan_codes: ["basic", "nope"] } })),
    ).toMatchObject({ kind: "not_found", code: "plans_not_found" });
    await createCoupon(h.deps, org, { patch: { ...fixed, plan_codes: ["basic"] } });
    expect(await failure(updateCoupon(h.deps, org, "startup", { patch: { plan_codes: ["nope"] } }))).toMatchObject({
      code: "plans_not_found",
    });
    expect((await h.deps.coupons.findLive(org, "startup"))?.plan_codes).toEqual(["basic"]);
    expect(await failure(createCoupon(h.deps, h.org(), { patch: { ...fixed, plan_codes: ["basic"] } }))).toMatchObject({
      code: "plans_not_found",
    });
  });

  it("keeps an applied coupon's terms: only name, description and expiration change afterwards", async () => {
    const org = h.org();
    h.customers.add(org, "a", { currency: "USD" });
    await createCoupon(h.deps, org, { patch: fixed });
    await apply(org, "a", "startup");
    const { coupon } = await updateCoupon(h.deps, org, "startup", {
      patch: { name: "Renamed", amount_cents: 1, code: "moved", plan_codes: ["nope"] },
    });
    expect(coupon).toMatchObject({ name: "Renamed", amount_cents: 5000, code: "startup", plan_codes: [] });
  });
});
