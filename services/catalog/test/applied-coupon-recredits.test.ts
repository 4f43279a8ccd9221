import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeAppliedCoupon } from "../src/use-cases/applied-coupons/consume-applied-coupon";
import { createAppliedCoupon } from "../src/use-cases/applied-coupons/create-applied-coupon";
import { listActiveAppliedCoupons } from "../src/use-cases/applied-coupons/list-active-applied-coupons";
import { recreditAppliedCoupon } from "../src/use-cases/applied-coupons/recredit-applied-coupon";
import { createCoupon } from "../src/use-cases/coupons/create-coupon";
import { startHarness, type Harness } from "./harness";

/** A voided invoice's coupon credit given back (Lago's AppliedCoupons::RecreditService), once whatever the retries. */
let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_applied_coupon_recredits")));
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
    consumeAppliedCoupon(h.deps, org, { appliedCouponId: applied.id, invoiceId, amountCents, amountCurrency });
  const recredit = (invoiceId: string) =>
    recreditAppliedCoupon(h.deps, org, { appliedCouponId: applied.id, invoiceId });
  const state = async () => (await h.deps.appliedCoupons.find(org, applied.id))!;
  return { org, applied, consume, recredit, state };
}

describe("giving back a voided invoice's coupon credit", () => {
  it("gives a fixed amount back and reactivates the coupon its use ended, once however often asked", async () => {
    const { org, consume, recredit, state } = await appliedCoupon();
    await consume("inv-1", 3000);
    await consume("inv-2", 2000);
    expect(await state()).toMatchObject({ amount_cents_remaining: 0, status: "terminated" });
    const results = await Promise.all(Array.from({ length: 6 }, () => recredit("inv-2")));
    expect(results.filter((r) => r.recredited)).toHaveLength(1);
    expect(await state()).toMatchObject({
      amount_cents_remaining: 2000,
      status: "active",
      terminated_at: null,
      recredited_invoice_ids: ["inv-2"],
    });
    expect((await recredit("inv-2")).recredited).toBe(false);
    expect(await listActiveAppliedCoupons(h.deps, org, (await state()).customer_id)).toHaveLength(1);
    // the next invoice can take what came back, and no more
    await consume("inv-3", 2000);
    expect(await state()).toMatchObject({ amount_cents_remaining: 0, status: "terminated" });
  });

  it("gives a recurring coupon its period back, and a percentage used once its use", async () => {
    const recurring = await appliedCoupon({ frequency: "recurring", frequency_duration: 2 });
    await recurring.consume("inv-1", 500);
    await recurring.consume("inv-2", 500);
    expect(await recurring.state()).toMatchObject({ frequency_duration_remaining: 0, status: "terminated" });
    await recurring.recredit("inv-1");
    await recurring.recredit("inv-1");
    expect(await recurring.state()).toMatchObject({ frequency_duration_remaining: 1, status: "active" });

    const percentage = await appliedCoupon({ coupon_type: "percentage", percentage_rate: "10" });
    await percentage.consume("inv-1", 120, "EUR");
    await percentage.recredit("inv-1");
    expect(await percentage.state()).toMatchObject({ status: "active", amount_cents_remaining: null });
  });

  it("changes nothing for an invoice that took no credit, and keeps a forever coupon as it is", async () => {
    const forever = await appliedCoupon({ frequency: "forever" });
    await forever.consume("inv-1", 700);
    expect((await forever.recredit("inv-9")).recredited).toBe(false);
    const before = await forever.state();
    expect((await forever.recredit("inv-1")).recredited).toBe(true);
    expect(await forever.state()).toMatchObject({
      status: before.status,
      amount_cents_remaining: before.amount_cents_remaining,
      frequency_duration_remaining: before.frequency_duration_remaining,
    });
  });

  it("is scoped to the organization", async () => {
    const { applied, consume } = await appliedCoupon();
    await consume("inv-1", 100);
    await expect(
      recreditAppliedCoupon(h.deps, h.org(), { appliedCouponId: applied.id, invoiceId: "inv-1" }),
    ).rejects.toMatchObject({ kind: "not_found" });
  });
});
