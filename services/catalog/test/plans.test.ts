import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "@billing/bus";
import { collectEvents, waitFor } from "@billing/testkit";
import { createAddOn } from "../src/use-cases/add-ons/create-add-on";
import { createBillableMetric } from "../src/use-cases/billable-metrics/create-billable-metric";
import { createPlan } from "../src/use-cases/plans/create-plan";
import { deletePlan } from "../src/use-cases/plans/delete-plan";
import { getPlan } from "../src/use-cases/plans/get-plan";
import { listPlans } from "../src/use-cases/plans/list-plans";
import type { PlanChange } from "../src/use-cases/plans/plan-change";
import { updatePlan } from "../src/use-cases/plans/update-plan";
import { createTax } from "../src/use-cases/taxes/create-tax";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_plans")));
afterAll(() => h.close());

const collect = (subject: string, org: string) => collectEvents<Envelope>(h.bus.nc, subject, org);

async function setup(org: string) {
  const metric = await createBillableMetric(h.deps, org, {
    name: "Calls",
    code: "calls",
    aggregation_type: "count_agg",
    filters: [{ key: "region", values: ["eu", "us"] }],
  });
  return { metric };
}

const basic = (metricId: string): PlanChange => ({
  patch: {
    name: "Basic",
    code: "basic",
    interval: "monthly",
    amount_cents: 1000,
    amount_currency: "EUR",
    pay_in_advance: false,
  },
  charges: [
    {
      billable_metric_id: metricId,
      charge_model: "standard",
      properties: { amount: "0.5" },
      filters: [{ values: { region: ["eu"] }, properties: { amount: "0.4" } }],
    },
    {
      billable_metric_id: metricId,
      charge_model: "package",
      properties: { amount: "10", package_size: 100, free_units: 0 },
    },
  ],
});

describe("plans against MongoDB and NATS", () => {
  it("creates a plan with its charges and publishes plan.created with the whole view", async () => {
    const org = h.org();
    const { metric } = await setup(org);
    await createTax(h.deps, org, { name: "VAT", code: "vat", rate: "20" });
    const events = collect("billing.catalog.plan.created", org);
    const plan = await createPlan(
      h.deps,
      org,
      { ...basic(metric.id), taxCodes: ["vat"], minimumCommitment: { amount_cents: 500, tax_codes: ["vat"] } },
      "req-p",
    );
    expect(plan).toMatchObject({
      code: "basic",
      taxes: [{ code: "vat" }],
      minimum_commitment: { amount_cents: 500, plan_code: "basic", taxes: [{ code: "vat" }] },
    });
    expect(plan.charges).toHaveLength(2);
    expect(plan.charges[0]).toMatchObject({
      svc_billable_metric_id: metric.id,
      billable_metric_code: "calls",
      charge_model: "standard",
      invoiceable: true,
      pay_in_advance: false,
      properties: { amount: "0.5" },
      filters: [{ values: { region: ["eu"] }, properties: { amount: "0.4" }, invoice_display_name: null }],
    });
    expect(plan.charges[0]!.svc_id).not.toBe(plan.charges[1]!.svc_id);
    await waitFor(() => events.received.length === 1, { what: "plan.created" });
    events.stop();
    expect(events.received[0]).toMatchObject({
      correlation_id: "req-p",
      data: { plan: { svc_id: plan.svc_id, charges: [{ billable_metric_code: "calls" }, {}] } },
    });
    const doc = await h.models.plans.findById(plan.svc_id).lean<{ outbox: unknown[] }>();
    expect(doc?.outbox).toEqual([]);
    expect(await getPlan(h.deps, org, "basic")).toEqual(plan);
  });

  it("refuses invalid properties, unknown metrics, unknown taxes and duplicate codes, storing nothing", async () => {
    const org = h.org();
    const { metric } = await setup(org);
    const bad = basic(metric.id);
    bad.charges![1]!.properties = { amount: "10", package_size: 0 };
    await expect(createPlan(h.deps, org, bad)).rejects.toMatchObject({
      details: { "charges.1.properties.package_size": ["value_is_invalid"] },
    });
    const badFilter = basic(metric.id);
    badFilter.charges![0]!.filters = [{ values: { region: ["asia"] }, properties: {} }];
    await expect(createPlan(h.deps, org, badFilter)).rejects.toMatchObject({
      details: { "charges.0.filters.0.values": ["value_is_invalid"] },
    });
    await expect(createPlan(h.deps, org, basic("nope"))).rejects.toMatchObject({ code: "billable_metric_not_found" });
    await expect(createPlan(h.deps, org, { ...basic(metric.id), taxCodes: ["nope"] })).rejects.toMatchObject({
      code: "tax_not_found",
    });
    expect(await h.models.plans.countDocuments({ organization_id: org })).toBe(0);
    await createPlan(h.deps, org, basic(metric.id));
    await expect(createPlan(h.deps, org, basic(metric.id))).rejects.toMatchObject({
      details: { code: ["value_already_exist"] },
    });
  });

  it("updates the fields sent, keeps the svc_id of charges sent with their id, and publishes plan.updated", async () => {
    const org = h.org();
    const { metric } = await setup(org);
    const addOn = await createAddOn(h.deps, org, {
      patch: { name: "Setup", code: "setup", amount_cents: 100, amount_currency: "EUR" },
    });
    const created = await createPlan(h.deps, org, basic(metric.id));
    const events = collect("billing.catalog.plan.updated", org);
    h.clock.advance(1000);
    const updated = await updatePlan(h.deps, org, "basic", {
      patch: { name: "Basic v2" },
      charges: [
        {
          id: created.charges[1]!.svc_id,
          billable_metric_id: metric.id,
          charge_model: "package",
          min_amount_cents: 300,
        },
      ],
      fixedCharges: [{ add_on_id: addOn.addOn.id, charge_model: "standard", units: 2, properties: { amount: "5" } }],
      usageThresholds: [{ amount_cents: 10000, recurring: true }],
    });
    expect(updated).toMatchObject({
      name: "Basic v2",
      amount_cents: 1000,
      usage_thresholds: [{ amount_cents: 10000, recurring: true }],
    });
    expect(updated.charges).toEqual([
      expect.objectContaining({
        svc_id: created.charges[1]!.svc_id,
        min_amount_cents: 300,
        properties: { amount: "10", package_size: 100, free_units: 0 },
      }),
    ]);
    expect(updated.fixed_charges).toEqual([
      expect.objectContaining({
        svc_add_on_id: addOn.addOn.id,
        add_on_code: "setup",
        units: 2,
        properties: { amount: "5" },
      }),
    ]);
    await waitFor(() => events.received.length === 1, { what: "plan.updated" });
    events.stop();
    await expect(updatePlan(h.deps, org, "basic", { patch: { interval: "daily" } })).rejects.toMatchObject({
      details: { interval: ["value_is_invalid"] },
    });
    expect((await getPlan(h.deps, org, "basic")).interval).toBe("monthly");
  });

  it("lists newest first, deletes softly (code reusable) and publishes plan.deleted", async () => {
    const org = h.org();
    const { metric } = await setup(org);
    await createPlan(h.deps, org, basic(metric.id));
    h.clock.advance(1000);
    await createPlan(h.deps, org, { ...basic(metric.id), patch: { ...basic(metric.id).patch, code: "pro" } });
    const { items, total } = await listPlans(h.deps, org, { page: 1, perPage: 10 });
    expect([items.map((p) => p.code), total]).toEqual([["pro", "basic"], 2]);
    const events = collect("billing.catalog.plan.deleted", org);
    const deleted = await deletePlan(h.deps, org, "basic");
    expect(deleted.deleted_at).not.toBeNull();
    await waitFor(() => events.received.length === 1, { what: "plan.deleted" });
    events.stop();
    await expect(getPlan(h.deps, org, "basic")).rejects.toMatchObject({ code: "plan_not_found" });
    await createPlan(h.deps, org, basic(metric.id));
    expect((await listPlans(h.deps, h.org(), { page: 1, perPage: 10 })).total).toBe(0);
  });
});
