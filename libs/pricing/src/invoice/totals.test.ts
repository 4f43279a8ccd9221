import { describe, expect, it } from "vitest";
import { computeInvoiceTotals } from "./totals";
import type { InvoiceFeeInput } from "./types";

const vat10 = { code: "vat10", rate: "10" };
const vat20 = { code: "vat20", rate: "20" };
const fee = (metric: string, plan: string, amount: number, tax = vat10): InvoiceFeeInput => ({
  fee_type: "charge",
  amount_cents: amount,
  billable_metric_code: metric,
  plan_code: plan,
  taxes: [tax],
});

describe("invoice totals: Lago's coupons breakdown scenario", () => {
  const fees = [
    fee("bm1", "p1", 1000),
    fee("bm2", "p1", 2000, vat20),
    fee("bm3", "p1", 3000),
    fee("bm4", "p1", 4000),
    fee("bm5", "p2", 1000),
    fee("bm6", "p2", 2000, vat20),
    fee("bm7", "p2", 3000),
    fee("bm8", "p2", 4000),
  ];
  const applied_coupons = [
    {
      id: "c1",
      coupon_type: "fixed_amount" as const,
      frequency: "once" as const,
      amount_cents: 2000,
      amount_currency: "EUR",
      billable_metric_codes: ["bm1", "bm2"],
    },
    {
      id: "c2",
      coupon_type: "fixed_amount" as const,
      frequency: "once" as const,
      amount_cents: 1000,
      amount_currency: "EUR",
      plan_codes: ["p2"],
    },
    {
      id: "c3",
      coupon_type: "fixed_amount" as const,
      frequency: "once" as const,
      amount_cents: 500,
      amount_currency: "EUR",
    },
  ];
  const totals = computeInvoiceTotals({ currency: "EUR", fees, applied_coupons, finalizing: true });

  it("computes every invoice amount", () => {
    expect(totals).toMatchObject({
      fees_amount_cents: 20_000,
      coupons_amount_cents: 3_500,
      sub_total_excluding_taxes_amount_cents: 16_500,
      taxes_amount_cents: 1_889,
      sub_total_including_taxes_amount_cents: 18_389,
      total_amount_cents: 18_389,
      payment_status: "pending",
    });
  });

  it("spreads coupons on fees at 5 decimals and taxes each fee net of its coupons", () => {
    expect(totals.fees.map((f) => [f.precise_coupons_amount_cents, f.taxes_amount_cents])).toEqual([
      ["676.47059", 32],
      ["1352.94117", 129],
      ["88.23529", 291],
      ["117.64706", 388],
      ["126.47059", 87],
      ["252.94118", 349],
      ["379.41176", 262],
      ["505.88235", 349],
    ]);
  });

  it("terminates once coupons that are fully used", () => {
    expect(totals.coupon_credits.map((c) => [c.applied_coupon_id, c.amount_cents, c.terminated])).toEqual([
      ["c1", 2000, true],
      ["c2", 1000, true],
      ["c3", 500, true],
    ]);
  });

  it("shows no coupons on a draft", () => {
    const draft = computeInvoiceTotals({ currency: "EUR", fees, applied_coupons, finalizing: false });
    expect(draft).toMatchObject({
      coupons_amount_cents: 0,
      sub_total_excluding_taxes_amount_cents: 20_000,
      taxes_amount_cents: 2_400,
    });
  });
});

describe("invoice totals: the rest of the pipeline", () => {
  it("rounds taxes once on the invoice, not per fee", () => {
    const fees = [fee("a", "p", 5, vat10), fee("b", "p", 5, vat10), fee("c", "p", 5, vat10)];
    const totals = computeInvoiceTotals({ currency: "EUR", fees, finalizing: true });
    // each fee: 0.5 -> 1 cent, invoice: round(1.5) = 2
    expect(totals.fees.map((f) => f.taxes_amount_cents)).toEqual([1, 1, 1]);
    expect(totals.taxes_amount_cents).toBe(2);
    expect(totals.applied_taxes).toEqual([
      { tax_code: "vat10", tax_name: null, tax_rate: "10", amount_cents: 2, fees_amount_cents: 15 },
    ]);
  });

  it("applies a percentage coupon rounded to the cent and terminates a once percentage coupon", () => {
    const totals = computeInvoiceTotals({
      currency: "EUR",
      fees: [fee("a", "p", 1001)],
      applied_coupons: [{ id: "pct", coupon_type: "percentage", frequency: "once", percentage_rate: "15" }],
      finalizing: true,
    });
    expect(totals.coupons_amount_cents).toBe(150);
    expect(totals.coupon_credits[0]).toMatchObject({ terminated: true });
  });

  it("counts down a recurring coupon", () => {
    const totals = computeInvoiceTotals({
      currency: "EUR",
      fees: [fee("a", "p", 1000)],
      applied_coupons: [
        {
          id: "r",
          coupon_type: "fixed_amount",
          frequency: "recurring",
          amount_cents: 300,
          amount_currency: "EUR",
          frequency_duration_remaining: 2,
        },
      ],
      finalizing: true,
    });
    expect(totals.coupon_credits[0]).toMatchObject({
      amount_cents: 300,
      terminated: false,
      frequency_duration_remaining: 1,
    });
  });

  it("subtracts the previous progressive invoice before coupons and taxes", () => {
    const totals = computeInvoiceTotals({
      currency: "EUR",
      fees: [{ ...fee("a", "p", 5000), charge_id: "ch1" }],
      progressive_billing_credits: [{ amount_cents: 2000, previous_fees: [{ charge_id: "ch1", amount_cents: 2000 }] }],
      finalizing: false,
    });
    expect(totals).toMatchObject({
      progressive_billing_credit_amount_cents: 2000,
      sub_total_excluding_taxes_amount_cents: 3000,
      taxes_amount_cents: 300,
      total_amount_cents: 3300,
    });
  });

  it("credits each subscription's progressive invoice against that subscription's charges only, each with its own excess", () => {
    // two subscriptions on the same plan (same charge) billed on one invoice: s1's usage fell below
    // what was billed progressively (30.00 billed, 12.00 now), s2's grew (10.00 billed, 50.00 now)
    const totals = computeInvoiceTotals({
      currency: "EUR",
      fees: [
        { ...fee("a", "p", 1200), id: "f1", subscription_id: "s1", charge_id: "ch1" },
        { ...fee("a", "p", 5000), id: "f2", subscription_id: "s2", charge_id: "ch1" },
      ],
      progressive_billing_credits: [
        { subscription_id: "s1", amount_cents: 3000, previous_fees: [{ charge_id: "ch1", amount_cents: 3000 }] },
        { subscription_id: "s2", amount_cents: 1000, previous_fees: [{ charge_id: "ch1", amount_cents: 1000 }] },
      ],
      finalizing: false,
    });
    // s1 takes 12.00 (its charges) and 18.00 goes back on its progressive invoice; s2 takes its 10.00
    expect(totals).toMatchObject({
      progressive_billing_credit_amount_cents: 2200,
      progressive_billing_excess_cents: 1800,
      progressive_billing_excesses: [1800, 0],
      sub_total_excluding_taxes_amount_cents: 4000,
      taxes_amount_cents: 400,
    });
    // each fee's taxes are net of its own subscription's credit
    expect(totals.fees.map((f) => [f.input.id, f.precise_coupons_amount_cents, f.taxes_amount_cents])).toEqual([
      ["f1", "1200.0", 0],
      ["f2", "1000.0", 400],
    ]);
  });

  it("applies credit notes after taxes, then wallets by priority", () => {
    const totals = computeInvoiceTotals({
      currency: "EUR",
      fees: [fee("a", "p", 1000), { fee_type: "subscription", amount_cents: 2000, taxes: [vat10] }],
      credit_notes: [{ id: "cn", balance_amount_cents: 300 }],
      wallets: [
        { id: "w-low", balance_cents: 10_000, priority: 60 },
        { id: "w-charges", balance_cents: 500, priority: 1, applies_to: { fee_types: ["charge"] } },
      ],
      finalizing: true,
    });
    expect(totals).toMatchObject({
      sub_total_including_taxes_amount_cents: 3300,
      credit_notes_amount_cents: 300,
      prepaid_credit_amount_cents: 3000,
      total_amount_cents: 0,
      payment_status: "succeeded",
    });
    expect(totals.wallet_consumptions).toEqual([
      { wallet_id: "w-charges", amount_cents: 500 },
      { wallet_id: "w-low", amount_cents: 2500 },
    ]);
    expect(totals.credit_note_credits).toEqual([
      { credit_note_id: "cn", amount_cents: 300, balance_amount_cents: 0, consumed: true },
    ]);
  });

  it("takes what the wallets recorded, in order and no more than is left to pay, instead of allocating again", () => {
    const input = { currency: "EUR", fees: [fee("a", "p", 1000)], finalizing: true } as const;
    const totals = computeInvoiceTotals({
      ...input,
      prepaid_consumed: [
        { wallet_id: "w1", amount_cents: 700 },
        { wallet_id: "w2", amount_cents: 700 },
      ],
    });
    expect(totals).toMatchObject({
      sub_total_including_taxes_amount_cents: 1100,
      prepaid_credit_amount_cents: 1100,
      total_amount_cents: 0,
    });
    expect(totals.wallet_consumptions).toEqual([
      { wallet_id: "w1", amount_cents: 700 },
      { wallet_id: "w2", amount_cents: 400 },
    ]);
    // a wallet that gave nothing (its balance went meanwhile) is simply absent
    expect(computeInvoiceTotals({ ...input, prepaid_consumed: [] })).toMatchObject({
      prepaid_credit_amount_cents: 0,
      total_amount_cents: 1100,
    });
  });

  it("never taxes a wallet top-up fee", () => {
    const totals = computeInvoiceTotals({
      currency: "EUR",
      fees: [{ fee_type: "credit", amount_cents: 1000, taxes: [vat20] }],
      finalizing: true,
    });
    expect(totals.taxes_amount_cents).toBe(0);
  });
});
