import { describe, expect, it } from "vitest";
import { customerUsage } from "./customer-usage";
import type { Fee } from "./invoice";

const fee = (overrides: Partial<Fee> & { grouped_by?: Record<string, string> }): Fee => ({
  id: "f",
  fee_type: "charge",
  subscription_id: "s",
  external_subscription_id: "s",
  plan_code: "p",
  charge_id: "ch_1",
  charge_filter_index: null,
  fixed_charge_id: null,
  billable_metric_code: "calls",
  charge_model: "standard",
  aggregation_type: "sum_agg",
  true_up_parent_fee_id: null,
  true_up: false,
  item: {
    code: "calls",
    name: "Calls",
    description: null,
    invoice_display_name: "Calls",
    filter_invoice_display_name: null,
    filters: null,
    item_id: "bm_1",
    item_type: "BillableMetric",
    grouped_by: overrides.grouped_by ?? {},
  },
  units: "1.0",
  total_aggregated_units: "1.0",
  events_count: 1,
  precise_unit_amount: "1.0",
  amount_cents: 100,
  precise_amount_cents: "100",
  pay_in_advance: false,
  invoiceable: true,
  from: null,
  to: null,
  amount_details: {},
  properties: {},
  taxes: [],
  description: null,
  precise_coupons_amount_cents: "0",
  taxes_amount_cents: 0,
  taxes_precise_amount_cents: "0",
  taxes_rate: 0,
  sub_total_excluding_taxes_precise_amount_cents: "100",
  total_amount_cents: 100,
  applied_taxes: [],
  ...overrides,
});
const charge = {
  svc_id: "ch_1",
  svc_billable_metric_id: "bm_1",
  billable_metric_code: "calls",
  code: null,
  charge_model: "standard",
  pay_in_advance: false,
  invoiceable: true,
  prorated: false,
  min_amount_cents: 0,
  regroup_paid_fees: null,
  invoice_display_name: "Calls!",
  properties: {},
  taxes: [],
  created_at: null,
  filters: [{ invoice_display_name: "EU", properties: {}, values: { region: ["eu"] } }],
};

describe("a period's usage", () => {
  it("sums each charge's fees, split by filter; true-ups and other fees are not usage", () => {
    const usage = customerUsage({
      from: new Date("2024-01-01T00:00:00Z"),
      to: new Date("2024-01-31T23:59:59.999Z"),
      issuing_date: "2024-02-01",
      invoice_id: null,
      currency: "EUR",
      taxes_amount_cents: 60,
      charges: [charge],
      fees: [
        fee({ charge_filter_index: 0, units: "2.5", amount_cents: 250, events_count: 2 }),
        fee({ units: "1.5", amount_cents: 150, events_count: 3 }),
        fee({ true_up: true, amount_cents: 999 }),
        fee({ fee_type: "subscription", charge_id: null, amount_cents: 10_000 }),
      ],
    });
    expect(usage).toMatchObject({ amount_cents: 400, taxes_amount_cents: 60, total_amount_cents: 460 });
    expect(usage.charges).toEqual([
      expect.objectContaining({
        units: "4.0",
        events_count: 5,
        amount_cents: 400,
        charge: { id: "ch_1", charge_model: "standard", invoice_display_name: "Calls!" },
        metric: { id: "bm_1", name: "Calls", code: "calls", aggregation_type: "sum_agg" },
        filters: [
          expect.objectContaining({
            units: "2.5",
            amount_cents: 250,
            invoice_display_name: "EU",
            values: { region: ["eu"] },
          }),
          expect.objectContaining({ units: "1.5", amount_cents: 150, invoice_display_name: null, values: {} }),
        ],
        grouped: [],
      }),
    ]);
  });

  it("splits a charge with pricing groups by group", () => {
    const usage = customerUsage({
      from: new Date(0),
      to: new Date(1),
      issuing_date: "2024-02-01",
      invoice_id: "inv",
      currency: "EUR",
      taxes_amount_cents: 0,
      charges: [{ ...charge, filters: [] }],
      fees: [
        fee({ grouped_by: { region: "eu" }, amount_cents: 100 }),
        fee({ grouped_by: { region: "us" }, amount_cents: 200 }),
      ],
    });
    expect(usage.charges[0]!.grouped.map((g) => [g.grouped_by, g.amount_cents])).toEqual([
      [{ region: "eu" }, 100],
      [{ region: "us" }, 200],
    ]);
    expect(usage.charges[0]!.filters).toEqual([]);
  });
});
