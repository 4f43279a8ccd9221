import { describe, expect, it } from "vitest";
import { ctx, note, payment, refund } from "../test-fixtures";
import { checkCreditNoteRefunds } from "./credit-note-refunds";

const codes = (o: ReturnType<typeof checkCreditNoteRefunds>) => o.breaches.map((b) => b.code);
const asked = note({ refund_amount_cents: 500, total_amount_cents: 500, refund_status: "succeeded" });
const charged = payment({
  _id: "p1",
  type: "provider",
  provider: { code: "sandbox", type: "sandbox", customer_id: "4242424242424242" },
  attempt: 1,
});

describe("credit_note_refund", () => {
  it("finds a requested refund executed once through the invoice's provider payment clean", () => {
    expect(checkCreditNoteRefunds(ctx, [asked], [refund()], [charged])).toMatchObject({ breaches: [], checked: 1 });
  });

  it("reports a requested refund with a provider payment but no refund record, naming the note and the payment", () => {
    const out = checkCreditNoteRefunds(ctx, [asked], [], [charged]);
    expect(codes(out)).toEqual(["refund_missing"]);
    expect(out.breaches[0]!.records.map((r) => `${r.type}:${r.id}`)).toEqual(["credit_note:cn1", "payment:p1"]);
  });

  it("reports a refund executed twice, of another amount, or whose outcome the note does not show", () => {
    expect(codes(checkCreditNoteRefunds(ctx, [asked], [refund(), refund({ _id: "r2" })], [charged]))).toEqual([
      "refund_repeated",
    ]);
    expect(codes(checkCreditNoteRefunds(ctx, [asked], [refund({ amount_cents: 700 })], [charged]))).toEqual([
      "refund_amount_mismatch",
    ]);
    expect(codes(checkCreditNoteRefunds(ctx, [{ ...asked, refund_status: "pending" }], [refund()], [charged]))).toEqual(
      ["refund_status_mismatch"],
    );
    expect(
      codes(checkCreditNoteRefunds(ctx, [asked], [refund({ amount_cents: 500 })], [{ ...charged, amount_cents: 400 }])),
    ).toEqual(["refund_beyond_payment"]);
  });

  it("asks nothing of a note refunded outside the platform (a manual payment), and ignores an overpayment's refund", () => {
    const out = checkCreditNoteRefunds(
      ctx,
      [asked],
      [refund({ _id: "r9", kind: "overpayment", credit_note_id: "p7", payment_id: "p7" })],
      [payment()],
    );
    expect(out).toMatchObject({ breaches: [], checked: 0 });
  });

  it("takes the invoice's latest succeeded payment", () => {
    const older = { ...charged, _id: "p0", created_at: new Date(0) };
    const manualLater = payment({ _id: "p2", created_at: new Date(ctx.now.getTime() - 1_000_000) });
    expect(checkCreditNoteRefunds(ctx, [asked], [], [older, manualLater]).breaches).toEqual([]);
  });

  it("reports a refund of a note that does not exist", () => {
    expect(codes(checkCreditNoteRefunds(ctx, [], [refund()], [charged]))).toEqual(["refund_without_credit_note"]);
  });
});
