import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBillableMetric } from "../src/use-cases/billable-metrics/create-billable-metric";
import { deleteBillableMetric } from "../src/use-cases/billable-metrics/delete-billable-metric";
import { createCoupon } from "../src/use-cases/coupons/create-coupon";
import { getCoupon } from "../src/use-cases/coupons/get-coupon";
import { listCoupons } from "../src/use-cases/coupons/list-coupons";
import { terminateCoupon } from "../src/use-cases/coupons/terminate-coupon";
import { updateCoupon } from "../src/use-cases/coupons/update-coupon";
import { createPlan } from "../src/use-cases/plans/create-plan";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_coupons")));
afterAll(() => h.close());

const plan = (code: string) => ({
  patch: { name: code, code, interval: "monthly", amount_cents: 100, amount_currency: "USD", pay_in_advance: false },
});
const fixed = {
  name: "Startup",
  code: "startup",
  coupon_type: "fixed_amount",
  amount_cents: 5000,
  amount_currency: "USD",
  frequency: "once",
  expiration: "no_expiration",
};

describe("coupons against MongoDB", () => {
  it("creates a fixed-amount coupon, reusable by default, without limitations", async () => {
    const org = h.org();
    const { coupon, billableMetricCodes } = await createCoupon(h.deps, org, { patch: fixed });
    expect(coupon).toMatchObject({
      reusable: true,
      percentage_rate: null,
      limited_plans: false,
      limited_billable_metrics: false,
      status: "active",
      terminated_at: null,
    });
    expect(billableMetricCodes).toEqual([]);
  });

  it("creates a recurring percentage coupon limited to metrics, showing their current codes", async () => {
    const org = h.org();
    await createBillableMetric(h.deps, org, { name: "Calls", code: "calls", aggregation_type: "count_agg" });
    const { coupon } = await createCoupon(h.deps, org, {
      patch: {
        name: "Ten",
        code: "ten",
        coupon_type: "percentage",
        percentage_rate: "10",
        frequency: "recurring",
        frequency_duration: 3,
        expiration: "time_limit",
        expiration_at: new Date("2027-01-01T00:00:00Z"),
      },
      billableMetricCodes: ["calls"],
    });
    expect(coupon).toMatchObject({
      percentage_rate: "10.0",
      amount_cents: null,
      amount_currency: null,
      frequency_duration: 3,
      limited_billable_metrics: true,
    });
    expect((await getCoupon(h.deps, org, "ten")).billableMetricCodes).toEqual(["calls"]);
    await deleteBillableMetric(h.deps, org, "calls");
    expect((await getCoupon(h.deps, org, "ten")).billableMetricCodes).toEqual([]);
  });

  it("refuses what Lago refuses, storing nothing", async () => {
    const org = h.org();
    const details = async (patch: Record<string, unknown>) =>
      (await createCoupon(h.deps, org, { patch: { ...fixed, ...patch } }).catch((e) => e)).details;
    expect(await details({ amount_cents: 0 })).toEqual({ amount_cents: ["value_is_out_of_range"] });
    expect(await details({ amount_currency: null })).toEqual({ amount_currency: ["value_is_mandatory"] });
    expect(await details({ coupon_type: "percentage" })).toEqual({ percentage_rate: ["value_is_mandatory"] });
    expect(await details({ frequency: "recurring" })).toEqual({ frequency_duration: ["value_is_mandatory"] });
    expect(await details({ expiration: "time_limit" })).toEqual({ expiration_at: ["value_is_mandatory"] });
    expect(await details({ expiration: "time_limit", expiration_at: new Date("2020-01-01") })).toEqual({
      expiration_at: ["invalid_date"],
    });
    await expect(createCoupon(h.deps, org, { patch: fixed, billableMetricCodes: ["nope"] })).rejects.toMatchObject({
      code: "billable_metric_not_found",
    });
    expect(await h.models.coupons.countDocuments({ organization_id: org })).toBe(0);
  });

  it("refuses a coupon limited both to plans and to metrics (405)", async () => {
    const org = h.org();
    await createBillableMetric(h.deps, org, { name: "Calls", code: "calls", aggregation_type: "count_agg" });
    await createPlan(h.deps, org, plan("p"));
    await expect(
      createCoupon(h.deps, org, { patch: { ...fixed, plan_codes: ["p"] }, billableMetricCodes: ["calls"] }),
    ).rejects.toMatchObject({
      kind: "not_allowed",
      code: "only_one_limitation_type_per_coupon_allowed",
    });
  });

  it("updates only what is sent and stores the codes of existing plans", async () => {
    const org = h.org();
    await createPlan(h.deps, org, plan("basic"));
    await createCoupon(h.deps, org, { patch: fixed });
    const { coupon } = await updateCoupon(h.deps, org, "startup", {
      patch: { name: "Renamed", plan_codes: ["basic", "basic"] },
    });
    expect(coupon).toMatchObject({ name: "Renamed", amount_cents: 5000, plan_codes: ["basic"], limited_plans: true });
  });

  it("terminates on delete: gone from reads, code free, terminated_at set", async () => {
    const org = h.org();
    await createCoupon(h.deps, org, { patch: fixed });
    h.clock.advance(60_000);
    const { coupon } = await terminateCoupon(h.deps, org, "startup");
    expect([coupon.status, coupon.terminated_at?.toISOString()]).toEqual(["terminated", "2026-01-15T10:01:00.000Z"]);
    await expect(getCoupon(h.deps, org, "startup")).rejects.toMatchObject({ code: "coupon_not_found" });
    await createCoupon(h.deps, org, { patch: fixed });
    expect((await listCoupons(h.deps, org, { page: 1, perPage: 5 })).total).toBe(1);
  });
});
