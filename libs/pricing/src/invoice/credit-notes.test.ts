import { describe, expect, it } from "vitest";
import {
  availableToCreditCents,
  creditNoteAmounts,
  estimatedCreditAmount,
  invoiceFeeTotalCents,
  splitCreditNote,
  terminationCreditCents,
  terminationSplit,
  proRataItems,
  type CreditedFee,
} from "./credit-notes";

// Lago's spec/scenarios/credit_notes/credit_note_spec.rb: two pay-in-advance plans (179.00 and
// 399.00), an organization tax of 10 % on both, a plan tax of 10 % on the second, and a 250.00
// coupon limited to the second plan.
const fee1: CreditedFee = {
  id: "f1",
  amount_cents: 17_900,
  precise_coupons_amount_cents: "0",
  taxes: [{ code: "org", rate: "10" }],
  taxes_rate: 10,
};
const fee2: CreditedFee = {
  id: "f2",
  amount_cents: 39_900,
  precise_coupons_amount_cents: "25000",
  taxes: [
    { code: "org", rate: "10" },
    { code: "plan", rate: "10" },
  ],
  taxes_rate: 20,
};

describe("credit note amounts (Lago's credit_note_spec)", () => {
  it("credits both fees in full: the coupon comes off and the taxes are the invoice's", () => {
    const a = creditNoteAmounts([
      { fee: fee1, amount_cents: 17_900 },
      { fee: fee2, amount_cents: 39_900 },
    ]);
    expect(a.coupons_adjustment_amount_cents).toBe(25_000);
    expect(a.sub_total_excluding_taxes_amount_cents).toBe(32_800);
    expect(a.taxes_amount_cents).toBe(4_770);
    expect(a.taxes_rate).toBe(14.54268);
    expect(estimatedCreditAmount(a)).toEqual({ total_amount_cents: 37_570, taxes_amount_cents: 4_770 });
    expect(a.applied_taxes).toEqual([
      { tax_code: "org", tax_rate: "10", base_amount_cents: 32_800, amount_cents: 3_280 },
      { tax_code: "plan", tax_rate: "10", base_amount_cents: 14_900, amount_cents: 1_490 },
    ]);
  });

  it("credits part of one fee: its coupon share pro rata, one cent off so sub-total + taxes = total", () => {
    const a = creditNoteAmounts([{ fee: fee2, amount_cents: 26_260 }]);
    expect(a.coupons_adjustment_amount_cents).toBe(16_454);
    expect(a.sub_total_excluding_taxes_amount_cents).toBe(9_806);
    expect(a.taxes_amount_cents).toBe(1_961);
    expect(a.taxes_rate).toBe(20);
    expect(estimatedCreditAmount(a)).toEqual({ total_amount_cents: 11_767, taxes_amount_cents: 1_961 });
    // the client refunds 117.67: total = refund, nothing to adjust
    expect(splitCreditNote(a, { credit_amount_cents: 0, refund_amount_cents: 11_767, offset_amount_cents: 0 })).toEqual(
      {
        credit_amount_cents: 0,
        refund_amount_cents: 11_767,
        offset_amount_cents: 0,
        total_amount_cents: 11_767,
        balance_amount_cents: 0,
      },
    );
    // asked one cent more (the unrounded 117.6764): the credit part gives it back
    expect(splitCreditNote(a, { credit_amount_cents: 11_768, refund_amount_cents: 0, offset_amount_cents: 0 })).toEqual(
      {
        credit_amount_cents: 11_767,
        refund_amount_cents: 0,
        offset_amount_cents: 0,
        total_amount_cents: 11_767,
        balance_amount_cents: 11_767,
      },
    );
  });

  it("splits credit and refund, the balance being the credit part", () => {
    const a = creditNoteAmounts([{ fee: fee1, amount_cents: 10_000 }]);
    expect(a.sub_total_excluding_taxes_amount_cents).toBe(10_000);
    expect(a.taxes_amount_cents).toBe(1_000);
    expect(
      splitCreditNote(a, { credit_amount_cents: 6_000, refund_amount_cents: 5_000, offset_amount_cents: 0 }),
    ).toMatchObject({ total_amount_cents: 11_000, balance_amount_cents: 6_000 });
  });

  it("an untaxed fee without coupon credits its amount", () => {
    const fee: CreditedFee = {
      id: "f",
      amount_cents: 1_000,
      precise_coupons_amount_cents: 0,
      taxes: [],
      taxes_rate: 0,
    };
    const a = creditNoteAmounts([{ fee, amount_cents: 333 }]);
    expect(a).toMatchObject({
      coupons_adjustment_amount_cents: 0,
      taxes_amount_cents: 0,
      taxes_rate: 0,
      sub_total_excluding_taxes_amount_cents: 333,
    });
    expect(estimatedCreditAmount(a).total_amount_cents).toBe(333);
  });

  it("the last note on an invoice takes back the taxes' rounding the earlier ones made", () => {
    const fee: CreditedFee = {
      id: "f",
      amount_cents: 1_000,
      precise_coupons_amount_cents: 0,
      taxes: [{ code: "t", rate: "20.5" }],
      taxes_rate: 20.5,
    };
    const first = creditNoteAmounts([{ fee, amount_cents: 333 }]);
    expect(first.precise_taxes_amount_cents.toString()).toBe("68.265");
    expect(first.taxes_amount_cents).toBe(68);
    const rounding = first.taxes_amount_cents - first.precise_taxes_amount_cents.toNumber();
    const last = creditNoteAmounts([{ fee, amount_cents: 667 }], {
      all_remaining: true,
      previous_taxes_rounding: rounding,
    });
    expect(first.taxes_amount_cents + last.taxes_amount_cents).toBe(205);
  });
});

describe("invoice limits", () => {
  it("fee total: fees and their taxes before coupons", () => {
    expect(
      invoiceFeeTotalCents([
        { amount_cents: 17_900, taxes_rate: 10 },
        { amount_cents: 39_900, taxes_rate: 20 },
      ]),
    ).toBe(57_800 + 1_790 + 7_980);
  });

  it("available to credit: coupons prorated over the creditable fees, taxes on what is left", () => {
    expect(
      availableToCreditCents({
        fees: [
          { creditable_amount_cents: 17_900, taxes_rate: 10 },
          { creditable_amount_cents: 39_900, taxes_rate: 20 },
        ],
        fees_amount_cents: 57_800,
        coupons_amount_cents: 25_000,
        progressive_billing_credit_amount_cents: 0,
      }),
    ).toBe(38_344);
    expect(
      availableToCreditCents({
        fees: [{ creditable_amount_cents: 0, taxes_rate: 0 }],
        fees_amount_cents: 100,
        coupons_amount_cents: 0,
        progressive_billing_credit_amount_cents: 0,
      }),
    ).toBe(0);
  });
});

// Lago's spec/scenarios/terminate_pay_in_advance_spec.rb: a 50.00 monthly plan paid in advance,
// a 20 % tax; subscribed on Feb 8 2023 (21 of 28 days: 37.50) and terminated the same day: the 20
// unused days are credited.
describe("termination credit", () => {
  it("credits the unused days at the period's day price, with taxes: 35.71 + 7.14 = 42.85", () => {
    const base = terminationCreditCents({
      plan_amount_cents: 5_000,
      period_days: 28,
      unused_days: 20,
      fee_amount_cents: 3_750,
      already_credited_cents: 0,
    });
    expect(base.toFixed(6)).toBe("3571.428571");
    const fee: CreditedFee = {
      id: "f",
      amount_cents: 3_750,
      precise_coupons_amount_cents: 0,
      taxes: [{ code: "vat", rate: "20" }],
      taxes_rate: 20,
    };
    const a = creditNoteAmounts([{ fee, amount_cents: base.round().toNumber(), precise_amount_cents: base }]);
    expect(a).toMatchObject({ sub_total_excluding_taxes_amount_cents: 3_571, taxes_amount_cents: 714 });
    const asked = a.precise_total.round().toNumber();
    expect(asked).toBe(4_286);
    expect(
      splitCreditNote(a, { credit_amount_cents: asked, refund_amount_cents: 0, offset_amount_cents: 0 }),
    ).toMatchObject({ credit_amount_cents: 4_285, total_amount_cents: 4_285, balance_amount_cents: 4_285 });
  });

  it("never more than the fee, less what was already credited; nothing for no unused day", () => {
    expect(
      terminationCreditCents({
        plan_amount_cents: 3_100,
        period_days: 31,
        unused_days: 31,
        fee_amount_cents: 2_000,
        already_credited_cents: 500,
      }).toNumber(),
    ).toBe(1_500);
    expect(
      terminationCreditCents({
        plan_amount_cents: 3_100,
        period_days: 31,
        unused_days: 0,
        fee_amount_cents: 3_100,
        already_credited_cents: 0,
      }).toNumber(),
    ).toBe(0);
    expect(
      terminationCreditCents({
        plan_amount_cents: 3_100,
        period_days: 31,
        unused_days: 10,
        fee_amount_cents: 3_100,
        already_credited_cents: 3_100,
      }).toNumber(),
    ).toBe(0);
  });
});

describe("termination split", () => {
  // a 45.00 invoice (37.50 + 7.50 of tax) paid in full; terminated with 20 of 28 days unused: 42.85
  // credited, the 1 used day worth 2.14 + 0.43 = 2.57 (Lago rounds the used part the same way)
  const paid = {
    total: 4_285,
    used_total: 257,
    fee_total_precise: "4500",
    invoice_sub_total_including_taxes_cents: 4_500,
    invoice_paid_cents: 4_500,
  };

  it("credit: all of it as a balance", () => {
    expect(terminationSplit({ option: "credit", ...paid })).toEqual({
      credit_amount_cents: 4_285,
      refund_amount_cents: 0,
      offset_amount_cents: 0,
    });
  });

  it("refund: what was paid beyond the used days, at most the total", () => {
    expect(terminationSplit({ option: "refund", ...paid })).toEqual({
      credit_amount_cents: 42,
      refund_amount_cents: 4_243,
      offset_amount_cents: 0,
    });
    expect(terminationSplit({ option: "offset", ...paid })).toEqual({
      credit_amount_cents: 0,
      refund_amount_cents: 4_243,
      offset_amount_cents: 42,
    });
  });

  it("unpaid: nothing to refund; offset deducts all of it from what is due", () => {
    const unpaid = { ...paid, invoice_paid_cents: 0 };
    expect(terminationSplit({ option: "refund", ...unpaid })).toEqual({
      credit_amount_cents: 4_285,
      refund_amount_cents: 0,
      offset_amount_cents: 0,
    });
    expect(terminationSplit({ option: "offset", ...unpaid })).toEqual({
      credit_amount_cents: 0,
      refund_amount_cents: 0,
      offset_amount_cents: 4_285,
    });
  });
});

describe("items of a void's credit note", () => {
  it("scales each fee's remainder to the amount asked", () => {
    expect(
      proRataItems(
        [
          { fee_id: "a", amount_cents: 1_000 },
          { fee_id: "b", amount_cents: 3_000 },
        ],
        2_400,
        4_800,
      ),
    ).toEqual([
      { fee_id: "a", amount_cents: 500, precise_amount_cents: "500" },
      { fee_id: "b", amount_cents: 1_500, precise_amount_cents: "1500" },
    ]);
    expect(proRataItems([{ fee_id: "a", amount_cents: 1_000 }], 100, 0)).toEqual([]);
  });
});
