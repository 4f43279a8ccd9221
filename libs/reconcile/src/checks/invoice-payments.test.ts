import { describe, expect, it } from "vitest";
import { ctx, invoice, payment } from "../test-fixtures";
import { checkInvoicePayments } from "./invoice-payments";

const codes = (o: ReturnType<typeof checkInvoicePayments>) => o.breaches.map((b) => b.code);

describe("invoice_payments", () => {
  it("finds an invoice paid by its succeeded payments clean (a failed attempt counts nothing)", () => {
    const i = invoice({ total_paid_amount_cents: 10_000, payment_status: "succeeded" });
    const out = checkInvoicePayments(
      ctx,
      [i],
      [
        payment({ _id: "p0", type: "provider", payment_status: "failed", attempt: 1 }),
        payment({ _id: "p1", amount_cents: 4_000 }),
        payment({ _id: "p2", amount_cents: 6_000 }),
      ],
    );
    expect(out.breaches).toEqual([]);
    expect(out.checked).toBe(1);
  });

  it("reports succeeded payments beyond the total that no overpayment records, with the invoice and its payments", () => {
    const i = invoice({ total_paid_amount_cents: 10_000, payment_status: "succeeded" });
    const out = checkInvoicePayments(
      ctx,
      [i],
      [payment({ _id: "p1" }), payment({ _id: "p2", type: "provider", amount_cents: 10_000 })],
    );
    expect(codes(out)).toEqual(["paid_beyond_total", "paid_amount_mismatch"]);
    expect(out.breaches[0]).toMatchObject({ expected: 10_000, actual: 20_000 });
    expect(out.breaches[0]!.records.map((r) => `${r.type}:${r.id}`)).toEqual([
      "invoice:i1",
      "payment:p1",
      "payment:p2",
    ]);
  });

  it("accepts the excess recorded as the provider payment's overpayment (absent = 0), also on the invoice", () => {
    const i = invoice({
      total_paid_amount_cents: 10_000,
      payment_status: "succeeded",
      overpayments: [{ payment_id: "p2", amount_cents: 10_000 }],
    });
    const out = checkInvoicePayments(
      ctx,
      [i],
      [
        payment({ _id: "p1" }),
        payment({ _id: "p2", type: "provider", amount_cents: 10_000, overpaid_amount_cents: 10_000 }),
      ],
    );
    expect(out.breaches).toEqual([]);
  });

  it("reports an overpayment the invoice recorded that the payment did not, and an overpaid part beyond the payment", () => {
    const i = invoice({ total_paid_amount_cents: 6_000, overpayments: [{ payment_id: "p2", amount_cents: 4_000 }] });
    expect(
      codes(
        checkInvoicePayments(
          ctx,
          [i],
          [payment({ _id: "p2", type: "provider", amount_cents: 10_000, overpaid_amount_cents: 0 })],
        ),
      ),
    ).toEqual(["paid_amount_mismatch", "overpayment_unrecorded"]);
    expect(
      codes(
        checkInvoicePayments(
          ctx,
          [invoice()],
          [payment({ _id: "p3", amount_cents: 100, overpaid_amount_cents: 200, payment_status: "failed" })],
        ),
      ),
    ).toEqual(["invalid_overpayment"]);
  });

  it("reports total_paid_amount_cents that is not what the payments brought", () => {
    const out = checkInvoicePayments(
      ctx,
      [invoice({ total_paid_amount_cents: 3_000 })],
      [payment({ amount_cents: 2_500 })],
    );
    expect(out.breaches.map((b) => [b.code, b.expected, b.actual])).toEqual([["paid_amount_mismatch", 2_500, 3_000]]);
  });

  it("counts an offset by credit notes as not payable", () => {
    const out = checkInvoicePayments(
      ctx,
      [invoice({ offset_amount_cents: 4_000, total_paid_amount_cents: 7_000 })],
      [payment({ amount_cents: 7_000 })],
    );
    expect(codes(out)).toEqual(["paid_beyond_total"]);
  });

  it("leaves an invoice whose payment changed within the grace period for the next run", () => {
    const out = checkInvoicePayments(
      ctx,
      [invoice()],
      [payment({ applied: false, updated_at: new Date(ctx.now.getTime() - 1_000) })],
    );
    expect(out).toMatchObject({ breaches: [], skipped: 1, checked: 0 });
  });

  it("reports a payment of an invoice that does not exist", () => {
    expect(codes(checkInvoicePayments(ctx, [], [payment({ invoice_id: "nowhere" })]))).toEqual([
      "payment_without_invoice",
    ]);
  });
});
