import { describe, expect, it } from "vitest";
import { amounts, ctx, fee, invoice, note, tx } from "../test-fixtures";
import type { InvoiceDoc } from "../documents";
import { checkInvoiceTotals, invoiceTaxesCents } from "./invoice-totals";

const codes = (o: ReturnType<typeof checkInvoiceTotals>) => o.breaches.map((b) => b.code);

/**
 * €100 at 20 % VAT, a €10 coupon (its share on the fee: the taxable base is €90), €5 from a credit
 * note and €3 of prepaid credits: 100 − 10 + 18 − 5 − 3 = €100.
 */
const taxed = (): InvoiceDoc =>
  invoice({
    fees: [
      fee({
        amount_cents: 10_000,
        precise_coupons_amount_cents: "1000",
        taxes_amount_cents: 1_800,
        total_amount_cents: 11_800,
        taxes: [{ code: "vat", rate: "20" }],
      }),
    ],
    credits: [
      {
        id: "cr1",
        applied_coupon_id: "ac1",
        amount_cents: 1_000,
        currency: "EUR",
        item: { id: "cp1", type: "coupon", code: "welcome", name: "Welcome" },
      },
      {
        id: "cr2",
        applied_coupon_id: "",
        amount_cents: 500,
        currency: "EUR",
        item: { id: "cn1", type: "credit_note", code: "X-CN001", name: "X-CN001" },
      },
    ],
    amounts: amounts({
      fees_amount_cents: 10_000,
      coupons_amount_cents: 1_000,
      sub_total_excluding_taxes_amount_cents: 9_000,
      taxes_amount_cents: 1_800,
      sub_total_including_taxes_amount_cents: 10_800,
      credit_notes_amount_cents: 500,
      prepaid_credit_amount_cents: 300,
      total_amount_cents: 10_000,
    }),
  });
const consumed = () => [
  note({
    _id: "cn1",
    invoice_id: "i0",
    credit_amount_cents: 800,
    balance_amount_cents: 300,
    consumptions: [{ invoice_id: "i1", amount_cents: 500 }],
  }),
];
const prepaid = () => [
  tx({
    _id: "t9",
    transaction_status: "invoiced",
    transaction_type: "outbound",
    amount_cents: 300,
    invoice_id: "i1",
    sequence: 2,
  }),
];

describe("invoice_totals", () => {
  it("finds an invoice whose totals are its fees, coupons, taxes, credit notes and prepaid credits clean", () => {
    const out = checkInvoiceTotals(ctx, [taxed()], consumed(), prepaid());
    expect(out.breaches).toEqual([]);
    expect(out.checked).toBe(2); // the invoice and the credit note
  });

  it("reports a total that is not sub-total incl. taxes − credit notes − prepaid credits, with the invoice", () => {
    const i = taxed();
    const out = checkInvoiceTotals(
      ctx,
      [{ ...i, amounts: { ...i.amounts, total_amount_cents: 10_300 } }],
      consumed(),
      prepaid(),
    );
    expect(codes(out)).toEqual(["amount_mismatch"]);
    expect(out.breaches[0]).toMatchObject({
      expected: 10_000,
      actual: 10_300,
      records: [{ type: "invoice", id: "i1", fields: { total_amount_cents: 10_300 } }],
    });
  });

  it("reports fees_amount that is not the sum of the fees, and a coupon total that is not the coupon credits", () => {
    const i = taxed();
    const out = checkInvoiceTotals(
      ctx,
      [{ ...i, amounts: { ...i.amounts, fees_amount_cents: 12_000, coupons_amount_cents: 3_000 } }],
      consumed(),
      prepaid(),
    );
    expect(out.breaches.map((b) => [b.code, b.expected, b.actual])).toEqual([
      ["amount_mismatch", 10_000, 12_000],
      ["amount_mismatch", 1_000, 3_000],
    ]);
  });

  it("recomputes taxes from the fees' taxable bases, rounded once on the invoice", () => {
    // three fees of 0.5 cent of tax each: Σ of rounded fee taxes would be 3, the invoice's is round(1.5) = 2
    const fees = ["a", "b", "c"].map((id) =>
      fee({ id, amount_cents: 5, taxes: [{ code: "t", rate: "10" }], taxes_amount_cents: 1, total_amount_cents: 6 }),
    );
    expect(invoiceTaxesCents(fees)).toBe(2);
    const i = invoice({
      fees,
      amounts: amounts({
        fees_amount_cents: 15,
        sub_total_excluding_taxes_amount_cents: 15,
        taxes_amount_cents: 3,
        sub_total_including_taxes_amount_cents: 18,
        total_amount_cents: 18,
      }),
    });
    expect(checkInvoiceTotals(ctx, [i], [], []).breaches.map((b) => [b.code, b.expected, b.actual])).toEqual([
      ["amount_mismatch", 2, 3],
    ]);
  });

  it("reports a fee whose total is not amount + taxes, or whose taxes are not its base's", () => {
    const i = taxed();
    const total = checkInvoiceTotals(
      ctx,
      [{ ...i, fees: [{ ...i.fees[0]!, total_amount_cents: 12_000 }] }],
      consumed(),
      prepaid(),
    );
    expect(total.breaches.map((b) => [b.code, b.expected, b.actual])).toEqual([["fee_total_mismatch", 11_800, 12_000]]);
    expect(total.breaches[0]!.records.map((r) => `${r.type}:${r.id}`)).toEqual(["invoice:i1", "fee:f1"]);
    const taxes = checkInvoiceTotals(
      ctx,
      [{ ...i, fees: [{ ...i.fees[0]!, total_amount_cents: 11_900, taxes_amount_cents: 1_900 }] }],
      consumed(),
      prepaid(),
    );
    expect(taxes.breaches.map((b) => [b.code, b.expected, b.actual])).toEqual([["fee_taxes_mismatch", 1_800, 1_900]]);
  });

  it("reports prepaid credits the wallets did not record giving, and a credit note credit the note did not record", () => {
    const out = checkInvoiceTotals(
      ctx,
      [taxed()],
      [note({ _id: "cn1", credit_amount_cents: 800, balance_amount_cents: 800 })],
      [],
    );
    expect(codes(out)).toEqual(["prepaid_credits_mismatch", "credit_note_credit_unrecorded"]);
    expect(out.breaches[0]).toMatchObject({ expected: 0, actual: 300 });
  });

  it("reports a credit note whose balance is not its credit less what invoices took", () => {
    const out = checkInvoiceTotals(ctx, [taxed()], [{ ...consumed()[0]!, balance_amount_cents: 800 }], prepaid());
    expect(codes(out)).toEqual(["credit_note_balance_mismatch"]);
    expect(out.breaches[0]).toMatchObject({
      expected: 300,
      actual: 800,
      records: [{ type: "credit_note", id: "cn1" }],
    });
  });

  it("waits out the grace period for credits taken by an invoice still being finalized, then reports them", () => {
    const open = invoice({ status: "generating", updated_at: new Date(ctx.now.getTime() - 5_000) });
    const recent = checkInvoiceTotals(ctx, [open], [], prepaid());
    expect(recent.breaches).toEqual([]);
    expect(recent.skipped).toBe(1);
    const stuck = checkInvoiceTotals(
      ctx,
      [{ ...open, updated_at: new Date(ctx.now.getTime() - 120_000) }],
      [],
      prepaid(),
    );
    expect(codes(stuck)).toEqual(["prepaid_taken_by_unfinalized_invoice"]);
  });

  it("takes an advance_charges invoice's totals from its fees' own taxes", () => {
    const fees = [
      fee({
        id: "a",
        amount_cents: 15_060,
        taxes_amount_cents: 3_012,
        total_amount_cents: 18_072,
        taxes: [{ code: "vat", rate: "20" }],
      }),
      fee({
        id: "b",
        amount_cents: 1_707,
        taxes_amount_cents: 341,
        total_amount_cents: 2_048,
        taxes: [{ code: "vat", rate: "20" }],
      }),
    ];
    const ok = amounts({
      fees_amount_cents: 16_767,
      sub_total_excluding_taxes_amount_cents: 16_767,
      taxes_amount_cents: 3_353,
      sub_total_including_taxes_amount_cents: 20_120,
      total_amount_cents: 20_120,
    });
    expect(
      checkInvoiceTotals(ctx, [invoice({ invoice_type: "advance_charges", fees, amounts: ok })], [], []).breaches,
    ).toEqual([]);
    expect(
      codes(
        checkInvoiceTotals(
          ctx,
          [invoice({ invoice_type: "advance_charges", fees, amounts: { ...ok, taxes_amount_cents: 3_354 } })],
          [],
          [],
        ),
      ),
    ).toEqual(["amount_mismatch"]);
  });

  it("leaves drafts alone", () => {
    const i = taxed();
    expect(
      checkInvoiceTotals(ctx, [{ ...i, status: "draft", amounts: { ...i.amounts, total_amount_cents: 1 } }], [], [])
        .checked,
    ).toBe(0);
  });
});
