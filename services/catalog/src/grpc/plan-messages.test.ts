import { describe, expect, it } from "vitest";
import { chargeFilterFromProto, chargePropertiesFromProto, Rpc } from "@billing/contracts";
import { replyCodec } from "@billing/grpc";
import { chargePropertiesSchema } from "@billing/pricing";
import type { Charge, Plan } from "../domain/types";
import { planView } from "../domain/views";
import { planMessage } from "./plan-messages";

const at = new Date("2024-01-01T00:00:00Z");
const charge = (
  id: string,
  charge_model: string,
  properties: Record<string, unknown>,
  filters: Charge["filters"] = [],
): Charge => ({
  id,
  billable_metric_id: "m1",
  billable_metric_code: "calls",
  code: null,
  charge_model,
  pay_in_advance: false,
  invoiceable: true,
  prorated: false,
  min_amount_cents: 0,
  regroup_paid_fees: null,
  invoice_display_name: null,
  properties,
  filters,
  tax_ids: [],
  created_at: at,
});
// stored as the pricing library's schemas leave them
const stored = (model: "standard" | "package" | "graduated" | "percentage", sent: Record<string, unknown>) =>
  chargePropertiesSchema(model).parse(sent) as Record<string, unknown>;

const plan: Plan = {
  id: "p1",
  organization_id: "o1",
  code: "starter",
  name: "Starter",
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
  charges: [
    charge("c1", "standard", stored("standard", { amount: null, grouped_by: ["team"] }), [
      {
        invoice_display_name: "EU",
        properties: stored("standard", { amount: "0.5" }),
        values: { region: ["eu", "uk"] },
      },
    ]),
    charge("c2", "package", stored("package", { amount: "5", package_size: 1000, free_units: null })),
    charge(
      "c3",
      "graduated",
      stored("graduated", {
        graduated_ranges: [
          { from_value: 0, to_value: "10", per_unit_amount: "1", flat_amount: "0" },
          { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "2" },
        ],
      }),
    ),
    charge(
      "c4",
      "percentage",
      stored("percentage", {
        rate: "2.5",
        fixed_amount: "0.3",
        free_units_per_events: 2,
        per_transaction_max_amount: null,
      }),
    ),
  ],
  fixed_charges: [
    {
      id: "f1",
      add_on_id: "a1",
      add_on_code: "setup",
      code: null,
      charge_model: "standard",
      pay_in_advance: true,
      prorated: false,
      units: 1,
      invoice_display_name: null,
      properties: stored("standard", { amount: "100" }),
      tax_ids: [],
      created_at: at,
    },
  ],
  metadata: { "a.b": "x", $c: null },
  created_at: at,
  updated_at: at,
  deleted_at: null,
};

describe("plan messages", () => {
  it("carry charge properties, filters and metadata to a client of GetPlan as they are stored", () => {
    const view = planView(plan, { taxes: new Map(), metricCodes: new Map(), addOnCodes: new Map() });
    const codec = replyCodec(Rpc.catalog.plans, "GetPlan");
    const received = codec.decode(codec.encode({ plan: planMessage(view) })).plan!;
    expect(received.charges.map((c) => chargePropertiesFromProto(c.properties))).toEqual(
      plan.charges.map((c) => c.properties),
    );
    expect(chargeFilterFromProto(received.charges[0]!.filters[0]!)).toEqual(plan.charges[0]!.filters[0]);
    expect(chargePropertiesFromProto(received.fixed_charges[0]!.properties)).toEqual({ amount: "100" });
    expect(JSON.parse(received.metadata_json!)).toEqual(plan.metadata);
  });
});
