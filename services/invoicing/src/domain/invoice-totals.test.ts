import { describe, expect, it } from "vitest";
import type { AppliedCouponInput } from "@billing/pricing";
import type { FeeDraft } from "./invoice";
import { consumedCoupons, priceInvoice } from "./invoice-totals";

const fee = (id: string, fee_type: FeeDraft["fee_type"], amount: number, taxRate?: string): FeeDraft => ({
  id,
  fee_type,
  subscription_id: "s",
  external_subscription_id: "s",
  plan_code: "starter",
  charge_id: fee_type === "charge" ? "ch" : null,
  charge_filter_index: null,
  fixed_charge_id: null,
  billable_metric_code: fee_type === "charge" ? "calls" : null,
  charge_model: null,
  aggregation_type: null,
  true_up_parent_fee_id: null,
  true_up: false,
  item: {
    code: "x",
    name: "x",
    description: null,
    invoice_display_name: "x",
    filter_invoice_display_name: null,
    filters: null,
    item_id: "x",
    item_type: "Subscription",
    grouped_by: {},
  },
  units: "1.0",
  total_aggregated_units: "1.0",
  events_count: null,
  precise_unit_amount: "1.0",
  amount_cents: amount,
  precise_amount_cents: String(amount),
  pay_in_advance: false,
  invoiceable: true,
  from: null,
  to: null,
  amount_details: {},
  properties: {},
  taxes: taxRate ? [{ svc_id: "t", name: "VAT", code: "vat", description: null, rate: taxRate }] : [],
  description: null,
});

describe("an invoice's amounts", () => {
  it("applies coupons only when finalizing, then taxes on what is left (billing-rules §3)", () => {
    const fees = [fee("a", "subscription", 10_000, "20"), fee("b", "charge", 333, "20")];
    const coupons: AppliedCouponInput[] = [
      {
        id: "c",
        coupon_type: "fixed_amount",
        frequency: "once",
        amount_cents: 1_000,
        amount_cents_remaining: 1_000,
        amount_currency: "EUR",
      },
    ];
    const draft = priceInvoice({ currency: "EUR", fees, coupons, finalizing: false });
    expect(draft.amounts).toMatchObject({
      fees_amount_cents: 10_333,
      coupons_amount_cents: 0,
      taxes_amount_cents: 2_067,
      total_amount_cents: 12_400,
    });
    const final = priceInvoice({ currency: "EUR", fees, coupons, finalizing: true });
    expect(final.amounts).toMatchObject({
      coupons_amount_cents: 1_000,
      sub_total_excluding_taxes_amount_cents: 9_333,
      taxes_amount_cents: 1_867,
      total_amount_cents: 11_200,
    });
    expect(final.coupons).toEqual([{ coupon: coupons[0], amount_cents: 1_000 }]);
    expect(final.applied_taxes).toEqual([
      expect.objectContaining({ tax_code: "vat", amount_cents: 1_867, fees_amount_cents: 9_333 }),
    ]);
  });

  it("gives the same amounts from the credits consumed as from the coupons themselves", () => {
    const fees = [fee("a", "subscription", 10_000, "20"), fee("b", "charge", 3_333, "10")];
    const coupons: AppliedCouponInput[] = [
      {
        id: "m",
        coupon_type: "percentage",
        frequency: "forever",
        percentage_rate: "15",
        billable_metric_codes: ["calls"],
        created_at: "2024-01-02T00:00:00Z",
      },
      {
        id: "u",
        coupon_type: "percentage",
        frequency: "recurring",
        percentage_rate: "12.5",
        frequency_duration_remaining: 2,
        created_at: "2024-01-01T00:00:00Z",
      },
    ];
    const planned = priceInvoice({ currency: "EUR", fees, coupons, finalizing: true });
    const replayed = priceInvoice({
      currency: "EUR",
      fees,
      coupons: consumedCoupons(planned.coupons, "EUR"),
      finalizing: true,
    });
    expect(replayed.amounts).toEqual(planned.amounts);
    expect(replayed.fees.map((f) => f.precise_coupons_amount_cents)).toEqual(
      planned.fees.map((f) => f.precise_coupons_amount_cents),
    );
  });
});
