import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2E, type E2E } from "../support/platform";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";

let e2e: E2E;
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("plans");
  const orgA = await e2e.organization("Acme Corp");
  const orgB = await e2e.organization("Globex");
  asA = api(e2e.platform.baseUrl, orgA.api_key);
  asB = api(e2e.platform.baseUrl, orgB.api_key);
});

afterAll(async () => {
  await e2e?.stop();
});

const ranges = (rate: boolean) => [
  { from_value: 0, to_value: 100, flat_amount: "0", ...(rate ? { rate: "1" } : { per_unit_amount: "0.5" }) },
  { from_value: 101, to_value: null, flat_amount: "10", ...(rate ? { rate: "0.5" } : { per_unit_amount: "0.25" }) },
];

describe("plans end to end", () => {
  it("creates a plan with a charge of every model and filters, reads, updates, lists and deletes it", async () => {
    const metric = await asA("POST", "/billable_metrics", {
      billable_metric: {
        name: "Calls",
        code: "calls",
        aggregation_type: "sum_agg",
        field_name: "n",
        filters: [{ key: "region", values: ["eu", "us"] }],
      },
    });
    expect(metric.status).toBe(200);
    expect((await asA("POST", "/taxes", { tax: { name: "VAT", code: "vat", rate: "20" } })).status).toBe(200);
    const id = metric.body.billable_metric.svc_id;
    const charges = [
      {
        billable_metric_id: id,
        charge_model: "standard",
        properties: {},
        filters: [
          { invoice_display_name: "Europe", values: { region: ["eu"] }, properties: { amount: "1" } },
          { values: { region: ["us"] }, properties: { amount: "2" } },
        ],
      },
      {
        billable_metric_id: id,
        charge_model: "graduated",
        properties: { graduated_ranges: ranges(false) },
        tax_codes: ["vat"],
      },
      {
        billable_metric_id: id,
        charge_model: "graduated_percentage",
        properties: { graduated_percentage_ranges: ranges(true) },
      },
      { billable_metric_id: id, charge_model: "package", properties: { amount: "5", package_size: 10, free_units: 2 } },
      {
        billable_metric_id: id,
        charge_model: "percentage",
        pay_in_advance: true,
        properties: { rate: "2.5", fixed_amount: "0.1" },
      },
      {
        billable_metric_id: id,
        charge_model: "volume",
        properties: { volume_ranges: ranges(false) },
        min_amount_cents: 100,
      },
      { billable_metric_id: id, charge_model: "dynamic", properties: {} },
    ];
    const created = await asA("POST", "/plans", {
      plan: {
        name: "Startup",
        code: "startup",
        interval: "monthly",
        amount_cents: 10000,
        amount_currency: "EUR",
        pay_in_advance: true,
        trial_period: 5,
        tax_codes: ["vat"],
        minimum_commitment: { amount_cents: 5000 },
        usage_thresholds: [{ amount_cents: 20000, recurring: false }],
        metadata: { source: "e2e" },
        charges,
      },
    });
    expect(created.status).toBe(200);
    expect(openapiErrors("Plan", created.body)).toEqual([]);
    const plan = created.body.plan;
    expect(plan).toMatchObject({
      code: "startup",
      taxes: [{ code: "vat", rate: 20 }],
      fixed_charges: [],
      entitlements: [],
      metadata: { source: "e2e" },
    });
    expect(plan.charges.map((c: { charge_model: string }) => c.charge_model)).toEqual(
      charges.map((c) => c.charge_model),
    );
    expect(plan.charges[0]).toMatchObject({
      svc_billable_metric_id: id,
      billable_metric_code: "calls",
      filters: [
        { invoice_display_name: "Europe", values: { region: ["eu"] }, properties: { amount: "1" } },
        { invoice_display_name: null, values: { region: ["us"] }, properties: { amount: "2" } },
      ],
    });
    expect(plan.charges[1]).toMatchObject({
      properties: { graduated_ranges: ranges(false) },
      taxes: [{ code: "vat" }],
    });

    const got = await asA("GET", "/plans/startup");
    expect(got.body).toEqual(created.body);

    const updated = await asA("PUT", "/plans/startup", {
      plan: {
        name: "Startup v2",
        charges: [
          {
            id: plan.charges[3].svc_id,
            billable_metric_id: id,
            charge_model: "package",
            properties: { amount: "6", package_size: 10 },
          },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(openapiErrors("Plan", updated.body)).toEqual([]);
    expect(updated.body.plan).toMatchObject({
      name: "Startup v2",
      amount_cents: 10000,
      charges: [{ svc_id: plan.charges[3].svc_id, properties: { amount: "6" } }],
    });

    expect(
      (
        await asA("POST", "/plans", {
          plan: {
            name: "Free",
            code: "free",
            interval: "yearly",
            amount_cents: 0,
            amount_currency: "USD",
            pay_in_advance: false,
          },
        })
      ).status,
    ).toBe(200);
    const list = await asA("GET", "/plans?per_page=1");
    expect(openapiErrors("PlansPaginated", list.body)).toEqual([]);
    expect(list.body.plans.map((p: { code: string }) => p.code)).toEqual(["free"]);
    expect(list.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, total_count: 2 });

    const deleted = await asA("DELETE", "/plans/startup");
    expect(deleted.status).toBe(200);
    expect(openapiErrors("Plan", deleted.body)).toEqual([]);
    expect((await asA("GET", "/plans/startup")).status).toBe(404);
    expect((await asA("GET", "/plans/startup")).body).toMatchObject({ code: "plan_not_found" });

    // a second organization sees none of it
    expect((await asB("GET", "/plans")).body).toMatchObject({ plans: [], meta: { total_count: 0 } });
    expect((await asB("GET", "/plans/free")).status).toBe(404);
  });

  it("refuses invalid charge properties naming the field, unknown metrics and duplicate codes, storing nothing", async () => {
    const metric = await asA("POST", "/billable_metrics", {
      billable_metric: { name: "Seats", code: "seats", aggregation_type: "count_agg" },
    });
    const id = metric.body.billable_metric.svc_id;
    const base = {
      name: "Bad",
      code: "bad",
      interval: "monthly",
      amount_cents: 0,
      amount_currency: "EUR",
      pay_in_advance: false,
    };
    const invalid = await asA("POST", "/plans", {
      plan: {
        ...base,
        charges: [
          { billable_metric_id: id, charge_model: "standard", properties: { amount: "1" } },
          {
            billable_metric_id: id,
            charge_model: "graduated",
            properties: {
              graduated_ranges: [
                { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "0" },
                { from_value: 50, to_value: null, per_unit_amount: "1", flat_amount: "0" },
              ],
            },
          },
        ],
      },
    });
    expect(invalid).toMatchObject({
      status: 422,
      body: {
        code: "validation_errors",
        error_details: { "charges.1.properties.graduated_ranges.1.from_value": ["invalid_graduated_ranges"] },
      },
    });
    const badModel = await asA("POST", "/plans", {
      plan: { ...base, charges: [{ billable_metric_id: id, charge_model: "tiered" }] },
    });
    expect(badModel).toMatchObject({
      status: 422,
      body: { error_details: { "charges.0.charge_model": ["value_is_invalid"] } },
    });
    const unknown = await asA("POST", "/plans", {
      plan: {
        ...base,
        charges: [{ billable_metric_id: "00000000-0000-0000-0000-000000000000", charge_model: "standard" }],
      },
    });
    expect(unknown).toMatchObject({ status: 404, body: { code: "billable_metric_not_found" } });
    expect((await asA("GET", "/plans/bad")).status).toBe(404);

    expect((await asA("POST", "/plans", { plan: base })).status).toBe(200);
    expect(await asA("POST", "/plans", { plan: base })).toMatchObject({
      status: 422,
      body: { error_details: { code: ["value_already_exist"] } },
    });
    expect(await asA("POST", "/plans", { plan: { name: "X", code: "x" } })).toMatchObject({
      status: 422,
      body: { error_details: { interval: ["value_is_mandatory"], amount_cents: ["value_is_mandatory"] } },
    });
  });
});
