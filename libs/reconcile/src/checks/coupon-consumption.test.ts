import { describe, expect, it } from "vitest";
import { appliedCoupon, coupon, ctx, invoice } from "../test-fixtures";
import type { InvoiceCreditDoc } from "../documents";
import { checkCouponConsumption } from "./coupon-consumption";

const codes = (o: ReturnType<typeof checkCouponConsumption>) => o.breaches.map((b) => b.code);
const credit = (appliedCouponId: string, amount: number): InvoiceCreditDoc => ({
  id: `cr_${appliedCouponId}`,
  applied_coupon_id: appliedCouponId,
  amount_cents: amount,
  currency: "EUR",
  item: { id: "cp1", type: "coupon", code: "welcome", name: "Welcome" },
});
const taken = (invoiceId: string, amount: number) => ({
  id: `c_${invoiceId}`,
  invoice_id: invoiceId,
  amount_cents: amount,
  amount_currency: "EUR",
  created_at: ctx.now,
});

describe("coupon_consumption", () => {
  it("finds a fixed coupon used once, whose credits are on their invoices and whose remainder is what is left, clean", () => {
    const out = checkCouponConsumption(
      ctx,
      [appliedCoupon({ amount_cents_remaining: 200, credits: [taken("i1", 500), taken("i2", 300)] })],
      [coupon()],
      [
        invoice({ _id: "i1", credits: [credit("ac1", 500)] }),
        invoice({ _id: "i2", number: "ACM-001-002", credits: [credit("ac1", 300)] }),
      ],
    );
    expect(out.breaches).toEqual([]);
  });

  it("reports a fixed coupon consumed beyond its amount, with the coupon and the invoices", () => {
    const out = checkCouponConsumption(
      ctx,
      [appliedCoupon({ amount_cents_remaining: -200, credits: [taken("i1", 700), taken("i2", 500)] })],
      [coupon()],
      [
        invoice({ _id: "i1", credits: [credit("ac1", 700)] }),
        invoice({ _id: "i2", number: "ACM-001-002", credits: [credit("ac1", 500)] }),
      ],
    );
    expect(codes(out)).toEqual(["consumed_beyond_amount"]);
    expect(out.breaches[0]).toMatchObject({ expected: 1_000, actual: 1_200 });
    expect(out.breaches[0]!.records.map((r) => `${r.type}:${r.id}`)).toEqual([
      "applied_coupon:ac1",
      "invoice:i1",
      "invoice:i2",
    ]);
  });

  it("does not count a voided invoice's credit given back", () => {
    const out = checkCouponConsumption(
      ctx,
      [
        appliedCoupon({
          amount_cents_remaining: 400,
          credits: [taken("i1", 1_000), taken("i2", 600)],
          recredited_invoice_ids: ["i1"],
        }),
      ],
      [coupon()],
      [
        invoice({ _id: "i1", status: "voided", credits: [credit("ac1", 1_000)] }),
        invoice({ _id: "i2", number: "ACM-001-002", credits: [credit("ac1", 600)] }),
      ],
    );
    expect(out.breaches).toEqual([]);
  });

  it("reports a remainder that is not the amount less the credits", () => {
    const out = checkCouponConsumption(
      ctx,
      [appliedCoupon({ amount_cents_remaining: 900, credits: [taken("i1", 500)] })],
      [coupon()],
      [invoice({ credits: [credit("ac1", 500)] })],
    );
    expect(out.breaches.map((b) => [b.code, b.expected, b.actual])).toEqual([["remaining_mismatch", 500, 900]]);
  });

  it("reports a recurring coupon used beyond its periods and a per-invoice amount above the coupon's", () => {
    const recurring = appliedCoupon({
      frequency: "recurring",
      frequency_duration: 1,
      frequency_duration_remaining: 0,
      amount_cents_remaining: null,
      credits: [taken("i1", 1_000), taken("i2", 1_500)],
    });
    const out = checkCouponConsumption(
      ctx,
      [recurring],
      [coupon()],
      [
        invoice({ _id: "i1", credits: [credit("ac1", 1_000)] }),
        invoice({ _id: "i2", number: "ACM-001-002", credits: [credit("ac1", 1_500)] }),
      ],
    );
    expect(codes(out)).toEqual(["consumed_beyond_amount", "periods_exceeded"]);
  });

  it("reports a percentage coupon used once that gave two credits", () => {
    const pct = appliedCoupon({
      percentage_rate: "10",
      amount_cents: null,
      amount_cents_remaining: null,
      credits: [taken("i1", 100), taken("i2", 100)],
    });
    const out = checkCouponConsumption(
      ctx,
      [pct],
      [coupon({ coupon_type: "percentage" })],
      [
        invoice({ _id: "i1", credits: [credit("ac1", 100)] }),
        invoice({ _id: "i2", number: "N2", credits: [credit("ac1", 100)] }),
      ],
    );
    expect(codes(out)).toEqual(["consumed_beyond_amount"]);
  });

  it("reports a catalog credit missing from its invoice and an invoice credit missing from the catalog", () => {
    const out = checkCouponConsumption(
      ctx,
      [appliedCoupon({ amount_cents_remaining: 500, credits: [taken("i1", 500)] })],
      [coupon()],
      [
        invoice({ _id: "i1", credits: [] }),
        invoice({ _id: "i2", number: "ACM-001-002", credits: [credit("ac1", 250)] }),
      ],
    );
    expect(codes(out)).toEqual(["credit_not_on_invoice", "invoice_credit_unrecorded"]);
  });

  it("waits out the grace period for a credit taken by an invoice still being finalized", () => {
    const applied = appliedCoupon({ amount_cents_remaining: 500, credits: [taken("i1", 500)] });
    const open = invoice({ status: "generating", updated_at: new Date(ctx.now.getTime() - 1_000) });
    expect(checkCouponConsumption(ctx, [applied], [coupon()], [open])).toMatchObject({ breaches: [], skipped: 1 });
    expect(codes(checkCouponConsumption(ctx, [applied], [coupon()], [{ ...open, updated_at: new Date(0) }]))).toEqual([
      "credit_for_unfinalized_invoice",
    ]);
  });
});
