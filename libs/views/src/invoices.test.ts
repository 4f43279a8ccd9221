import { describe, expect, it } from "vitest";
import type { InvoicingMessages as M } from "@billing/contracts";
import { presentFee, presentListedFee } from "./invoices";
import { feeObject, listedFeeObject } from "./schemas";

// A graduated charge's fee as the invoicing service sends it over gRPC: absent optionals left out,
// repeated fields empty, the amount details holding only what the charge model filled.
const fee = {
  svc_id: "fee_1",
  svc_charge_id: "ch_1",
  svc_invoice_id: "inv_1",
  svc_subscription_id: "sub_1",
  svc_customer_id: "cus_1",
  external_customer_id: "acme",
  external_subscription_id: "sub_ext",
  amount_cents: 1_250,
  precise_amount: "12.5",
  precise_total_amount: "15.0",
  amount_currency: "EUR",
  taxes_amount_cents: 250,
  taxes_precise_amount: "2.5",
  taxes_rate: 20,
  units: "15.0",
  precise_unit_amount: "0.83333",
  total_aggregated_units: "15.0",
  total_amount_cents: 1_500,
  total_amount_currency: "EUR",
  events_count: 3,
  pay_in_advance: false,
  invoiceable: true,
  from_date: "2024-01-01T00:00:00.000Z",
  to_date: "2024-01-31T23:59:59.999Z",
  payment_status: "pending",
  created_at: "2024-02-01T00:00:00.000Z",
  precise_coupons_amount_cents: "0.0",
  sub_total_excluding_taxes_amount_cents: 1_250,
  sub_total_excluding_taxes_precise_amount_cents: "1250.0",
  amount_details: {
    graduated_ranges: [
      {
        units: "10.0",
        from_value: 0,
        to_value: 10,
        flat_unit_amount: "0.0",
        per_unit_amount: "1.0",
        per_unit_total_amount: "10.0",
        total_with_flat_amount: "10.0",
      },
      {
        units: "5.0",
        from_value: 11,
        flat_unit_amount: "0.0",
        per_unit_amount: "0.5",
        per_unit_total_amount: "2.5",
        total_with_flat_amount: "2.5",
      },
    ],
    graduated_percentage_ranges: [],
  },
  self_billed: false,
  item: {
    type: "charge",
    code: "calls",
    name: "Calls",
    invoice_display_name: "Calls",
    svc_item_id: "bm_1",
    item_type: "BillableMetric",
    filters: { values: { region: { values: ["eu", "us"] } } },
    grouped_by: { team: "a" },
  },
  applied_taxes: [
    {
      svc_id: "t_1",
      tax_name: "VAT",
      tax_code: "vat",
      tax_rate: 20,
      amount_cents: 250,
      amount_currency: "EUR",
      created_at: "2024-02-01T00:00:00.000Z",
      svc_fee_id: "fee_1",
    },
  ],
  properties: {
    charge: {
      graduated_ranges: [{ from_value: 0, per_unit_amount: "1.0", flat_amount: "0" }],
      graduated_percentage_ranges: [],
      volume_ranges: [],
      null_fields: [],
    },
  },
} as unknown as M.Fee__Output;

describe("presentFee", () => {
  it("presents absent optional fields as null, filters as key → values, only the amount details filled, the properties as an object", () => {
    const view = presentFee(fee);
    expect(feeObject.safeParse(view).success).toBe(true);
    expect(view).toMatchObject({
      svc_charge_filter_id: null,
      svc_true_up_fee_id: null,
      succeeded_at: null,
      event_transaction_id: null,
      description: null,
      properties: { graduated_ranges: [{ from_value: 0, to_value: null, per_unit_amount: "1.0", flat_amount: "0" }] },
    });
    expect(view.item).toMatchObject({
      description: null,
      filter_invoice_display_name: null,
      filters: { region: ["eu", "us"] },
      grouped_by: { team: "a" },
    });
    expect(view.amount_details).toEqual({
      graduated_ranges: [
        expect.objectContaining({ to_value: 10 }),
        expect.objectContaining({ from_value: 11, to_value: null }),
      ],
    });
    expect(view.applied_taxes[0]).toMatchObject({ svc_tax_id: null, tax_description: null });
  });

  it("lists a waiting pay-in-advance fee without invoice, with Lago's pricing_unit_details", () => {
    const { svc_invoice_id: _i, ...waiting } = fee;
    const view = presentListedFee({
      ...waiting,
      payment_status: "refunded",
      item: { ...fee.item!, filters: null },
    } as M.Fee__Output);
    expect(listedFeeObject.safeParse(view).success).toBe(true);
    expect(view).toMatchObject({
      svc_invoice_id: null,
      payment_status: "refunded",
      pricing_unit_details: null,
      item: expect.objectContaining({ filters: null }),
    });
  });
});
