import { describe, expect, it } from "vitest";
import type { UsageMessages } from "@billing/contracts";
import { estimatedFeesBody } from "./estimate-fees";
import { feeEstimateObject } from "./schemas";

// An estimated pay-in-advance fee as the usage service sends it over gRPC (absent optionals left out).
const estimated = {
  invoice_display_name: "Storage GB",
  fee: {
    svc_charge_id: "ch_1",
    svc_subscription_id: "sub_1",
    svc_customer_id: "cus_1",
    external_customer_id: "acme",
    external_subscription_id: "sub_ext",
    amount_cents: 600,
    precise_amount: "6.0",
    precise_total_amount: "7.2",
    amount_currency: "EUR",
    taxes_amount_cents: 120,
    taxes_precise_amount: "1.2",
    taxes_rate: 20,
    units: "3.0",
    precise_unit_amount: "2.0",
    total_aggregated_units: "3.0",
    total_amount_cents: 720,
    total_amount_currency: "EUR",
    events_count: 1,
    pay_in_advance: true,
    invoiceable: false,
    from_date: "2024-01-01T00:00:00.000Z",
    to_date: "2024-01-31T23:59:59.999Z",
    payment_status: "pending",
    event_transaction_id: "tx_1",
    precise_coupons_amount_cents: "0.0",
    sub_total_excluding_taxes_amount_cents: 600,
    sub_total_excluding_taxes_precise_amount_cents: "600.0",
    amount_details: { graduated_ranges: [], graduated_percentage_ranges: [] },
    self_billed: false,
    item: {
      type: "charge",
      code: "storage",
      name: "Storage",
      invoice_display_name: "Storage",
      svc_item_id: "bm_1",
      item_type: "BillableMetric",
      filters: null,
      grouped_by: {},
    },
    applied_taxes: [
      {
        svc_id: "t_1",
        tax_name: "VAT",
        tax_code: "vat",
        tax_rate: 20,
        amount_cents: 120,
        amount_currency: "EUR",
        created_at: "2024-01-10T00:00:00.000Z",
        svc_fee_id: "",
      },
    ],
    properties: null,
  },
} as unknown as UsageMessages.EstimatedFee__Output;

describe("estimatedFeesBody", () => {
  it("answers Lago's estimated FeeObject: no id, invoice nor creation time, the charge's own display name", () => {
    const body = JSON.parse(estimatedFeesBody([estimated])) as { fees: unknown[] };
    expect(body.fees).toHaveLength(1);
    expect(feeEstimateObject.safeParse(body.fees[0]).success).toBe(true);
    expect(body.fees[0]).toMatchObject({
      svc_id: null,
      svc_invoice_id: null,
      created_at: null,
      invoice_display_name: "Storage GB",
      pricing_unit_details: null,
      description: null,
      amount_cents: 600,
      units: "3.0",
      event_transaction_id: "tx_1",
      amount_details: {},
      item: { filters: null, grouped_by: {} },
      applied_taxes: [{ svc_fee_id: null, svc_tax_id: null, tax_description: null, amount_cents: 120 }],
    });
    expect(body.fees[0]).not.toHaveProperty("properties");
    expect(JSON.parse(estimatedFeesBody([]))).toEqual({ fees: [] });
  });
});
