import { describe, expect, it } from "vitest";
import { Violations } from "./patch";
import { checkCharge, checkFixedCharge, planViolations } from "./plan-rules";
import type { Plan } from "./types";

const plan = (over: Partial<Plan> = {}): Plan => ({
  id: "p",
  organization_id: "o",
  code: "basic",
  name: "Basic",
  description: null,
  invoice_display_name: null,
  interval: "monthly",
  amount_cents: 1000,
  amount_currency: "EUR",
  trial_period: null,
  pay_in_advance: false,
  bill_charges_monthly: null,
  bill_fixed_charges_monthly: null,
  tax_ids: [],
  minimum_commitment: null,
  usage_thresholds: [],
  charges: [],
  fixed_charges: [],
  metadata: null,
  created_at: new Date(),
  updated_at: new Date(),
  deleted_at: null,
  ...over,
});
const charge = (over: Record<string, unknown>) => ({
  charge_model: "standard",
  pay_in_advance: false,
  invoiceable: true,
  min_amount_cents: 0,
  regroup_paid_fees: null,
  properties: {},
  filters: [],
  ...over,
});

describe("plan rules", () => {
  it("accepts a valid plan and names every missing or wrong field", () => {
    expect(planViolations(plan())).toBeNull();
    expect(planViolations(plan({ name: "", interval: "daily", amount_currency: "XXX1", trial_period: -1 }))).toEqual({
      name: ["value_is_mandatory"],
      interval: ["value_is_invalid"],
      amount_currency: ["value_is_invalid"],
      trial_period: ["value_is_invalid"],
    });
    expect(planViolations(plan({ bill_charges_monthly: true }))).toEqual({
      bill_charges_monthly: ["value_is_invalid"],
    });
    expect(planViolations(plan({ interval: "yearly", bill_charges_monthly: true }))).toBeNull();
  });

  it("validates charge properties with the pricing schema, keyed by charge index and exact path", () => {
    const v = new Violations();
    const ok = checkCharge(
      v,
      0,
      charge({
        charge_model: "graduated",
        properties: {
          graduated_ranges: [
            { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "0" },
            { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "0" },
          ],
        },
      }),
      [],
    );
    expect(v.result()).toBeNull();
    expect((ok.properties.graduated_ranges as unknown[]).length).toBe(2);
    checkCharge(
      v,
      1,
      charge({
        charge_model: "graduated",
        properties: {
          graduated_ranges: [
            { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "0" },
            { from_value: 50, to_value: null, per_unit_amount: "0.5", flat_amount: "0" },
          ],
        },
      }),
      [],
    );
    checkCharge(v, 2, charge({ charge_model: "package", properties: { amount: "abc", package_size: 10 } }), []);
    expect(v.result()).toEqual({
      "charges.1.properties.graduated_ranges.1.from_value": ["invalid_graduated_ranges"],
      "charges.2.properties.amount": ["value_is_not_valid_number"],
    });
  });

  it("checks filter keys and values against the metric's filters", () => {
    const metricFilters = [{ key: "region", values: ["eu", "us"] }];
    const v = new Violations();
    const ok = checkCharge(
      v,
      0,
      charge({ filters: [{ values: { region: ["eu"] }, properties: { amount: "1" } }] }),
      metricFilters,
    );
    expect(v.result()).toBeNull();
    expect(ok.filters).toEqual([
      { invoice_display_name: null, values: { region: ["eu"] }, properties: { amount: "1" } },
    ]);
    checkCharge(
      v,
      0,
      charge({
        filters: [
          { values: { region: ["asia"] }, properties: {} },
          { values: { cloud: ["aws"] }, properties: { amount: "-1" } },
        ],
      }),
      metricFilters,
    );
    expect(v.result()).toEqual({
      "charges.0.filters.0.values": ["value_is_invalid"],
      "charges.0.filters.1.values": ["value_is_invalid"],
      "charges.0.filters.1.properties.amount": ["value_is_out_of_range"],
    });
  });

  it("refuses non-invoiceable charges paid in arrears and fixed charges of usage-only models", () => {
    const v = new Violations();
    checkCharge(v, 0, charge({ invoiceable: false }), []);
    checkFixedCharge(v, 0, { charge_model: "percentage", units: 1, properties: {} });
    expect(v.result()).toEqual({
      "charges.0.invoiceable": ["value_is_invalid"],
      "fixed_charges.0.charge_model": ["value_is_invalid"],
    });
  });
});
