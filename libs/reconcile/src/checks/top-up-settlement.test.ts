import { describe, expect, it } from "vitest";
import { amounts, ctx, fee, invoice, tx } from "../test-fixtures";
import type { InvoiceDoc } from "../documents";
import { checkTopUpSettlement } from "./top-up-settlement";

const codes = (o: ReturnType<typeof checkTopUpSettlement>) => o.breaches.map((b) => b.code);
/** A €30 top-up's credit invoice, paid. */
const creditInvoice = (o: Partial<InvoiceDoc> = {}): InvoiceDoc =>
  invoice({
    _id: "ci1",
    invoice_type: "credit",
    wallet_transaction_id: "t_buy",
    payment_status: "succeeded",
    fees: [fee({ fee_type: "credit", amount_cents: 3_000, total_amount_cents: 3_000 })],
    amounts: amounts({
      fees_amount_cents: 3_000,
      sub_total_excluding_taxes_amount_cents: 3_000,
      sub_total_including_taxes_amount_cents: 3_000,
      total_amount_cents: 3_000,
    }),
    ...o,
  });
const purchase = tx({
  _id: "t_buy",
  transaction_status: "purchased",
  amount_cents: 3_000,
  invoice_id: "ci1",
  sequence: 2,
});

describe("top_up_settlement", () => {
  it("finds a paid credit invoice whose purchase is settled for its total clean", () => {
    expect(checkTopUpSettlement(ctx, [creditInvoice()], [purchase])).toMatchObject({ breaches: [], checked: 1 });
  });

  it("finds an unpaid one whose purchase waits (or failed with its payment) clean", () => {
    const pending = { ...purchase, status: "pending" as const, sequence: null, settled_at: null };
    expect(checkTopUpSettlement(ctx, [creditInvoice({ payment_status: "pending" })], [pending]).breaches).toEqual([]);
    expect(
      checkTopUpSettlement(
        ctx,
        [creditInvoice({ payment_status: "failed" })],
        [{ ...pending, status: "failed", failure: "payment_failed" }],
      ).breaches,
    ).toEqual([]);
  });

  it("reports a paid credit invoice whose purchase is not settled, with the invoice and the transaction", () => {
    const out = checkTopUpSettlement(
      ctx,
      [creditInvoice()],
      [{ ...purchase, status: "failed", sequence: null, failure: "payment_failed" }],
    );
    expect(codes(out)).toEqual(["paid_top_up_not_settled"]);
    expect(out.breaches[0]!.records.map((r) => `${r.type}:${r.id}`)).toEqual([
      "invoice:ci1",
      "wallet_transaction:t_buy",
    ]);
  });

  it("reports a settled purchase whose credit invoice is not paid, or that has none", () => {
    expect(codes(checkTopUpSettlement(ctx, [creditInvoice({ payment_status: "pending" })], [purchase]))).toEqual([
      "settled_top_up_not_paid",
    ]);
    expect(codes(checkTopUpSettlement(ctx, [], [purchase]))).toEqual(["settled_purchase_without_invoice"]);
  });

  it("reports a credit invoice without its purchase, a second purchase naming it, and a settled amount other than it charged", () => {
    expect(codes(checkTopUpSettlement(ctx, [creditInvoice()], []))).toEqual(["purchase_missing"]);
    expect(
      codes(checkTopUpSettlement(ctx, [creditInvoice()], [purchase, { ...purchase, _id: "t_again", sequence: 3 }])),
    ).toEqual(["several_purchases", "settled_purchase_without_invoice"]);
    expect(codes(checkTopUpSettlement(ctx, [creditInvoice()], [{ ...purchase, amount_cents: 6_000 }]))).toEqual([
      "top_up_amount_mismatch",
    ]);
  });

  it("leaves a credit invoice paid within the grace period for the next run (its settlement follows the event)", () => {
    const out = checkTopUpSettlement(
      ctx,
      [creditInvoice({ updated_at: new Date(ctx.now.getTime() - 2_000) })],
      [{ ...purchase, status: "pending", sequence: null, settled_at: null }],
    );
    expect(out).toMatchObject({ breaches: [], skipped: 1 });
  });
});
