import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appliedCouponView } from "../src/domain/applied-coupon-view";
import { consumeAppliedCoupon, type CreditRequest } from "../src/use-cases/applied-coupons/consume-applied-coupon";
import { createAppliedCoupon } from "../src/use-cases/applied-coupons/create-applied-coupon";
import { listActiveAppliedCoupons } from "../src/use-cases/applied-coupons/list-active-applied-coupons";
import { listAppliedCoupons } from "../src/use-cases/applied-coupons/list-applied-coupons";
import { createCoupon } from "../src/use-cases/coupons/create-coupon";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_applied_coupon_credits")));
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
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => ({ kind: e.kind, code: e.code }),
  );

/** An organization with customer "a" and one coupon applied to it. */
async function appliedCoupon(patch: Record<string, unknown> = {}) {
  const org = h.org();
  h.customers.add(org, "a", { currency: "USD" });
  await createCoupon(h.deps, org, { patch: { ...fixed, ...patch } });
  const { applied } = await createAppliedCoupon(h.deps, org, {
    external_customer_id: "a",
    coupon_code: "startup",
    overrides: {},
  });
  const consume = (invoiceId: string, amountCents: number, amountCurrency = "USD") =>
    consumeAppliedCoupon(h.deps, org, {
      appliedCouponId: applied.id,
      invoiceId,
      amountCents,
      amountCurrency,
    } satisfies CreditRequest);
  return { org, applied, consume };
}

describe("consuming applied coupons", () => {
  it("takes a fixed amount used once until nothing is left, idempotently by invoice id", async () => {
    const { org, consume } = await appliedCoupon();
    const first = await consume("inv-1", 3000);
    expect(first.appliedCoupon.applied).toMatchObject({ amount_cents_remaining: 2000, status: "active" });
    const replay = await consume("inv-1", 3000);
    expect(replay.credit).toEqual(first.credit);
    expect(replay.appliedCoupon.applied).toMatchObject({
      amount_cents_remaining: 2000,
      status: "active",
      credits: [first.credit],
    });
    expect(await failure(consume("inv-2", 2500))).toEqual({
      kind: "failed_precondition",
      code: "amount_exceeds_remaining",
    });
    const last = await consume("inv-2", 2000);
    expect(last.appliedCoupon.applied).toMatchObject({
      amount_cents_remaining: 0,
      status: "terminated",
      terminated_at: expect.any(Date),
    });
    expect(await failure(consume("inv-3", 1))).toEqual({
      kind: "failed_precondition",
      code: "applied_coupon_not_active",
    });
    expect((await consume("inv-2", 2000)).credit).toEqual(last.credit);

    const [item] = (await listAppliedCoupons(h.deps, org, {}, { page: 1, perPage: 10 })).items;
    expect(appliedCouponView(item!).credits).toEqual([
      expect.objectContaining({
        amount_cents: 3000,
        amount_currency: "USD",
        before_taxes: true,
        item: expect.objectContaining({ type: "coupon", code: "startup", name: "Startup" }),
        invoice: { svc_id: "inv-1", payment_status: "pending" },
      }),
      expect.objectContaining({ amount_cents: 2000, invoice: { svc_id: "inv-2", payment_status: "pending" } }),
    ]);
  });

  it("records one credit when the same invoice consumes concurrently", async () => {
    const { consume } = await appliedCoupon({ frequency: "forever" });
    const results = await Promise.all(Array.from({ length: 10 }, () => consume("inv-1", 700)));
    expect(new Set(results.map((r) => r.credit.id)).size).toBe(1);
    const after = await consume("inv-1", 700);
    expect(after.appliedCoupon.applied.credits).toHaveLength(1);
  });

  it("never takes more than what is left when invoices race", async () => {
    const { org, applied, consume } = await appliedCoupon();
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => failure(consume(`inv-${i}`, 1000))));
    expect(outcomes.filter((o) => o === null)).toHaveLength(5);
    const state = await h.deps.appliedCoupons.find(org, applied.id);
    expect(state).toMatchObject({ amount_cents_remaining: 0, status: "terminated" });
    expect(state!.credits.reduce((sum, c) => sum + c.amount_cents, 0)).toBe(5000);
  });

  it("counts the periods of a recurring coupon down, and ends a percentage used once after one invoice", async () => {
    const recurring = await appliedCoupon({ frequency: "recurring", frequency_duration: 2 });
    expect((await recurring.consume("inv-1", 5000)).appliedCoupon.applied).toMatchObject({
      frequency_duration_remaining: 1,
      status: "active",
    });
    expect((await recurring.consume("inv-2", 5000)).appliedCoupon.applied).toMatchObject({
      frequency_duration_remaining: 0,
      status: "terminated",
    });
    const percentage = await appliedCoupon({ coupon_type: "percentage", percentage_rate: "10" });
    expect((await percentage.consume("inv-1", 120, "EUR")).appliedCoupon.applied).toMatchObject({
      status: "terminated",
      amount_cents_remaining: null,
    });
  });

  it("refuses a fixed amount in another currency, unknown applied coupons and other organizations", async () => {
    const { applied, consume } = await appliedCoupon({ frequency: "forever" });
    expect(await failure(consume("inv-1", 100, "EUR"))).toEqual({
      kind: "failed_precondition",
      code: "currencies_does_not_match",
    });
    expect(await failure(consume("", 100))).toMatchObject({ code: "validation_errors" });
    const request = { appliedCouponId: applied.id, invoiceId: "inv-1", amountCents: 100, amountCurrency: "USD" };
    expect(await failure(consumeAppliedCoupon(h.deps, h.org(), request))).toEqual({
      kind: "not_found",
      code: "applied_coupon_not_found",
    });
    expect(
      await failure(consumeAppliedCoupon(h.deps, applied.organization_id, { ...request, appliedCouponId: "nope" })),
    ).toMatchObject({ code: "applied_coupon_not_found" });
  });

  it("lists a customer's active applied coupons oldest first for invoicing", async () => {
    const { org, applied } = await appliedCoupon();
    h.clock.advance(1000);
    const second = await createAppliedCoupon(h.deps, org, {
      external_customer_id: "a",
      coupon_code: "startup",
      overrides: { amount_cents: 100 },
    });
    const active = await listActiveAppliedCoupons(h.deps, org, applied.customer_id);
    expect(active.map((a) => appliedCouponView(a))).toEqual([
      expect.objectContaining({
        svc_id: applied.id,
        coupon_type: "fixed_amount",
        plan_codes: [],
        billable_metric_codes: [],
      }),
      expect.objectContaining({ svc_id: second.applied.id, amount_cents: 100 }),
    ]);
    expect(await listActiveAppliedCoupons(h.deps, h.org(), applied.customer_id)).toEqual([]);
  });
});
