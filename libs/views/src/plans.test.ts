import { describe, expect, it } from "vitest";
import type { CatalogMessages as M } from "@billing/contracts";
import { presentPlan } from "./plans";

const at = "2024-01-01T00:00:00.000Z";
const stored: M.Plan__Output = {
  svc_id: "p1",
  name: "Starter",
  code: "starter",
  interval: "monthly",
  amount_cents: 1000,
  amount_currency: "EUR",
  pay_in_advance: false,
  taxes: [],
  usage_thresholds: [],
  charges: [],
  fixed_charges: [],
  entitlements: [],
  created_at: at,
  updated_at: at,
};
const commitment: M.MinimumCommitment__Output = {
  svc_id: "m1",
  plan_code: "starter",
  amount_cents: 500,
  interval: "monthly",
  taxes: [],
  created_at: at,
  updated_at: at,
};

describe("presentPlan", () => {
  it("sends an optional value that is not set as null, as Lago's server does", () => {
    const plan = presentPlan({ ...stored, minimum_commitment: commitment });
    expect(plan).toMatchObject({
      description: null,
      invoice_display_name: null,
      trial_period: null,
      bill_charges_monthly: null,
      metadata: null,
    });
    expect(plan.minimum_commitment).toMatchObject({ amount_cents: 500, invoice_display_name: null });
  });

  it("keeps values that are set, zero included", () => {
    const plan = presentPlan({
      ...stored,
      description: "small teams",
      invoice_display_name: "Starter plan",
      trial_period: 0,
    });
    expect(plan).toMatchObject({
      description: "small teams",
      invoice_display_name: "Starter plan",
      trial_period: 0,
      minimum_commitment: null,
    });
  });
});
