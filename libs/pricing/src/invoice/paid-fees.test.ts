import { describe, expect, it } from "vitest";
import { paidFeesTotals } from "./paid-fees";

const vat = (amount: number, tax: number) => ({
  amount_cents: amount,
  taxes_amount_cents: tax,
  applied_taxes: [{ tax_code: "vat", tax_name: "VAT", tax_rate: "20.0", amount_cents: tax }],
});

describe("paidFeesTotals (Lago's advance_charges invoice)", () => {
  it("sums the fees' own rounded taxes (36.74), not a tax on the total (36.75)", () => {
    // spec/scenarios/invoices/advance_charges_spec.rb, August: 150.60 + 17.07 + 16.06 at 20 %
    const totals = paidFeesTotals([vat(15_060, 3_012), vat(1_707, 341), vat(1_606, 321)]);
    expect(totals).toMatchObject({
      fees_amount_cents: 18_373,
      sub_total_excluding_taxes_amount_cents: 18_373,
      taxes_amount_cents: 3_674,
      sub_total_including_taxes_amount_cents: 22_047,
      total_amount_cents: 22_047,
      coupons_amount_cents: 0,
      credit_notes_amount_cents: 0,
      prepaid_credit_amount_cents: 0,
      progressive_billing_credit_amount_cents: 0,
      taxes_rate: 20,
    });
    expect(totals.applied_taxes).toEqual([
      { tax_code: "vat", tax_name: "VAT", tax_rate: "20.0", amount_cents: 3_674, fees_amount_cents: 18_373 },
    ]);
  });

  it("keeps each tax apart, and an untaxed fee adds to no tax's base", () => {
    const gst = {
      amount_cents: 1_000,
      taxes_amount_cents: 50,
      applied_taxes: [{ tax_code: "gst", tax_name: null, tax_rate: "5.0", amount_cents: 50 }],
    };
    const totals = paidFeesTotals([
      vat(1_000, 200),
      gst,
      { amount_cents: 500, taxes_amount_cents: 0, applied_taxes: [] },
    ]);
    expect(totals.taxes_amount_cents).toBe(250);
    expect(totals.total_amount_cents).toBe(2_750);
    expect(totals.taxes_rate).toBe(10);
    expect(totals.applied_taxes.map((t) => [t.tax_code, t.amount_cents, t.fees_amount_cents])).toEqual([
      ["vat", 200, 1_000],
      ["gst", 50, 1_000],
    ]);
  });

  it("is all zeros without fees", () => {
    expect(paidFeesTotals([])).toMatchObject({
      fees_amount_cents: 0,
      taxes_amount_cents: 0,
      total_amount_cents: 0,
      taxes_rate: 0,
      applied_taxes: [],
    });
  });
});
