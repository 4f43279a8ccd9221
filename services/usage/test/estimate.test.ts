import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@billing/clock";
import { AppError } from "@billing/errors";
import { waitFor } from "@billing/testkit";
import { openapiErrors } from "../../../tests/support/openapi";
import type { PeriodQuery, UsageEventRecord, UsageReader } from "../src/domain/usage-event";
import { CachedUsageReader } from "../src/use-cases/estimate/cached-usage-reader";
import { estimateFees, type EstimateDeps } from "../src/use-cases/estimate/estimate-fees";
import {
  chargeView,
  metricEvent,
  metricView,
  planView,
  publish,
  startCopiesFixture,
  subscriptionEvent,
  subscriptionView,
  type CopiesFixture,
} from "./read-copies-fixtures";

/** Stored usage in memory, read the way the real reader answers: one subscription, one code, [from, to), time order. */
class MemoryUsage implements UsageReader {
  stored: UsageEventRecord[] = [];
  add(external_subscription_id: string, code: string, at: string, properties: Record<string, string | number>) {
    const now = new Date(at);
    this.stored.push({
      svc_id: randomUUID(),
      organization_id: org,
      external_subscription_id,
      transaction_id: randomUUID(),
      code,
      timestamp: now,
      properties,
      precise_total_amount_cents: null,
      batch_id: "b",
      created_at: now,
    });
  }
  async events(q: PeriodQuery) {
    return this.stored
      .filter(
        (e) =>
          e.organization_id === q.organizationId &&
          e.external_subscription_id === q.externalSubscriptionId &&
          e.code === q.code,
      )
      .filter((e) => e.timestamp >= q.from && e.timestamp < q.to)
      .sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
  }
}

const org = randomUUID();
const updated_at = "2025-08-01T00:00:00.000Z";
const vat = {
  svc_id: randomUUID(),
  code: "vat",
  name: "VAT",
  rate: 20,
  description: "standard",
  applied_to_organization: false,
};
const m = {
  calls: metricView({ code: "calls", updated_at }),
  storage: metricView({ code: "storage", aggregation_type: "sum_agg", field_name: "gb", updated_at }),
  seats: metricView({ code: "seats", aggregation_type: "unique_count_agg", field_name: "seat_id", updated_at }),
  users: metricView({
    code: "users",
    aggregation_type: "unique_count_agg",
    field_name: "user_id",
    recurring: true,
    updated_at,
  }),
  bytes: metricView({ code: "bytes", aggregation_type: "sum_agg", field_name: "mb", updated_at }),
  minutes: metricView({ code: "minutes", aggregation_type: "sum_agg", field_name: "min", updated_at }),
  payments: metricView({ code: "payments", aggregation_type: "sum_agg", field_name: "amount", updated_at }),
  transfers: metricView({ code: "transfers", aggregation_type: "sum_agg", field_name: "amount", updated_at }),
  compute: metricView({
    code: "compute",
    aggregation_type: "sum_agg",
    field_name: "total",
    expression: "event.properties.a * 2",
    updated_at,
  }),
  regions: metricView({
    code: "regions",
    aggregation_type: "sum_agg",
    field_name: "gb",
    filters: [{ key: "region", values: ["eu", "us"] }],
    updated_at,
  }),
  vms: metricView({ code: "vms", aggregation_type: "sum_agg", field_name: "hours", updated_at }),
  arrears: metricView({ code: "arrears", updated_at }),
};
const plan = planView({
  code: "usage",
  updated_at,
  charges: [
    chargeView(m.calls, { taxes: [vat], invoice_display_name: "API calls" }),
    chargeView(m.storage),
    chargeView(m.seats),
    chargeView(m.users),
    chargeView(m.bytes, { charge_model: "package", properties: { amount: "5", package_size: 10, free_units: 0 } }),
    chargeView(m.minutes, {
      charge_model: "graduated",
      properties: {
        graduated_ranges: [
          { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "0" },
          { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "2" },
        ],
      },
    }),
    chargeView(m.payments, {
      charge_model: "percentage",
      properties: { rate: "0.5", per_transaction_min_amount: "12" },
    }),
    chargeView(m.transfers, { charge_model: "percentage", properties: { rate: "50", free_units_per_events: 1 } }),
    chargeView(m.compute, { properties: { amount: "1" } }),
    chargeView(m.regions, {
      properties: { amount: "1" },
      filters: [{ invoice_display_name: "Europe", properties: { amount: "2" }, values: { region: ["eu"] } }],
    }),
    chargeView(m.vms, { properties: { amount: "1", pricing_group_keys: ["cloud"] } }),
    chargeView(m.arrears, { pay_in_advance: false }),
  ],
});
const taxedPlan = planView({
  code: "taxed",
  updated_at,
  taxes: [vat, { ...vat, svc_id: randomUUID(), code: "local", name: "Local", rate: "5.5" }],
  charges: [chargeView(m.calls)],
});

let f: CopiesFixture;
const usage = new MemoryUsage();
const clock = new ManualClock("2025-09-04T10:00:00Z");
let deps: EstimateDeps;

beforeAll(async () => {
  f = await startCopiesFixture("usage_estimate");
  deps = { copies: f.copies, usage, clock };
  const started = (external_id: string, p: typeof plan, since = "2025-09-01T00:00:00.000Z") =>
    subscriptionEvent(
      "Started",
      org,
      subscriptionView(p, { external_id, started_at: since, subscription_at: since, created_at: since }),
      p,
      new Date(since),
    );
  await publish(f.bus, ...Object.values(m).map((metric) => metricEvent("Created", org, metric)));
  await publish(
    f.bus,
    started("sub_1", plan),
    started("sub_old", plan, "2024-09-01T00:00:00.000Z"),
    started("sub_taxed", taxedPlan),
  );
  await waitFor(
    () =>
      ["sub_1", "sub_old", "sub_taxed"].every((s) => f.copies.activeSubscription(org, s)) &&
      f.copies.metricByCode(org, "arrears"),
    {
      what: "read copies",
    },
  );
});

afterAll(async () => {
  await f?.close();
});

beforeEach(() => {
  usage.stored = [];
  clock.set("2025-09-04T10:00:00Z");
});

const estimate = async (code: string, properties: Record<string, unknown> = {}, external = "sub_1") => {
  const fees = await estimateFees(deps, { organizationId: org, externalSubscriptionId: external, code, properties });
  expect(openapiErrors("Fees", { fees })).toEqual([]);
  return fees;
};
const one = async (code: string, properties: Record<string, unknown> = {}, external = "sub_1") => {
  const fees = await estimate(code, properties, external);
  expect(fees).toHaveLength(1);
  return fees[0]!;
};
const amounts = (fee: { amount_cents: number; units: string; events_count: number }) => [
  fee.amount_cents,
  fee.units,
  fee.events_count,
];
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail("expected a refusal"),
    (err: AppError) => ({ code: err.code, details: err.details, status: err.httpStatus }),
  );

describe("estimate_fees, as Lago's estimate scenarios (billing-rules §1.12–1.13)", () => {
  it("count_agg × standard: one unit at 10, with or without stored events; charge taxes applied", async () => {
    const first = await one("calls");
    expect(amounts(first)).toEqual([1000, "1.0", 1]);
    expect(first).toMatchObject({
      svc_id: null,
      svc_invoice_id: null,
      pay_in_advance: true,
      invoiceable: false,
      amount_currency: "EUR",
      payment_status: "pending",
      taxes_amount_cents: 200,
      taxes_rate: 20,
      total_amount_cents: 1200,
      precise_amount: "10.0",
      taxes_precise_amount: "2.0",
      external_subscription_id: "sub_1",
      from_date: "2025-09-01T00:00:00.000Z",
      to_date: "2025-09-30T23:59:59.999Z",
      item: {
        type: "charge",
        code: "calls",
        name: "calls",
        item_type: "BillableMetric",
        svc_item_id: m.calls.svc_id,
        invoice_display_name: "API calls",
        filters: null,
      },
      applied_taxes: [
        {
          tax_code: "vat",
          tax_name: "VAT",
          tax_rate: 20,
          amount_cents: 200,
          amount_currency: "EUR",
          svc_tax_id: vat.svc_id,
        },
      ],
    });
    usage.add("sub_1", "calls", "2025-09-03T00:00:00Z", {});
    expect(amounts(await one("calls"))).toEqual([1000, "1.0", 1]);
  });

  it("falls back to the plan's taxes when the charge has none", async () => {
    const fee = await one("calls", {}, "sub_taxed");
    expect(fee).toMatchObject({
      amount_cents: 1000,
      taxes_rate: 25.5,
      taxes_amount_cents: 255,
      total_amount_cents: 1255,
    });
    expect(fee.applied_taxes.map((t) => [t.tax_code, t.amount_cents])).toEqual([
      ["vat", 200],
      ["local", 55],
    ]);
  });

  it("sum_agg × standard: the event's units at 10", async () => {
    expect(amounts(await one("storage", { gb: 4 }))).toEqual([4000, "4.0", 1]);
    usage.add("sub_1", "storage", "2025-09-03T00:00:00Z", { gb: 4 });
    expect(amounts(await one("storage", { gb: 4 }))).toEqual([4000, "4.0", 1]);
    // Events of another period do not count.
    usage.add("sub_1", "storage", "2025-08-31T23:59:59Z", { gb: 100 });
    expect(amounts(await one("storage", { gb: "4" }))).toEqual([4000, "4.0", 1]);
  });

  it("unique_count_agg: a value already counted in the period is free, a new one is billed, a removal is free", async () => {
    expect(amounts(await one("seats", { seat_id: "1234" }))).toEqual([1000, "1.0", 1]);
    usage.add("sub_1", "seats", "2025-09-03T00:00:00Z", { seat_id: "1234" });
    expect(amounts(await one("seats", { seat_id: "1234" }))).toEqual([0, "0.0", 1]);
    expect(amounts(await one("seats", { seat_id: "5678" }))).toEqual([1000, "1.0", 1]);
    expect(amounts(await one("seats", { seat_id: "1234", operation_type: "remove" }))).toEqual([0, "0.0", 1]);
  });

  it("recurring unique_count_agg: values from previous periods still count", async () => {
    usage.add("sub_old", "users", "2024-09-03T00:00:00Z", { user_id: "1234" });
    clock.set("2025-09-02T00:00:00Z");
    expect(amounts(await one("users", { user_id: "1234" }, "sub_old"))).toEqual([0, "0.0", 1]);
    expect(amounts(await one("users", { user_id: "9876" }, "sub_old"))).toEqual([1000, "1.0", 1]);
  });

  it("percentage with a per-transaction minimum: 4 → the 12.00 minimum, 20 000 → 0.5 % = 100.00", async () => {
    expect(amounts(await one("payments", { amount: 4 }))).toEqual([1200, "4.0", 1]);
    usage.add("sub_1", "payments", "2025-09-03T00:00:00Z", { amount: 4 });
    expect(amounts(await one("payments", { amount: 20_000 }))).toEqual([10_000, "20000.0", 1]);
  });

  it("percentage with one free event: the first is free, the next pays 50 %", async () => {
    expect(amounts(await one("transfers", { amount: 4 }))).toEqual([0, "4.0", 1]);
    usage.add("sub_1", "transfers", "2025-09-03T00:00:00Z", { amount: 4 });
    expect(amounts(await one("transfers", { amount: 4 }))).toEqual([200, "4.0", 1]);
  });

  it("package: only the packages the event opens are billed", async () => {
    expect(amounts(await one("bytes", { mb: 5 }))).toEqual([500, "5.0", 1]);
    usage.add("sub_1", "bytes", "2025-09-02T00:00:00Z", { mb: 8 });
    expect(amounts(await one("bytes", { mb: 2 }))).toEqual([0, "2.0", 1]);
    expect(amounts(await one("bytes", { mb: 5 }))).toEqual([500, "5.0", 1]);
  });

  it("graduated: the event's units priced in the tiers they fall in (8 stored + 5 = 10 × 1 + 3 × 0.5 + 2 flat − 8)", async () => {
    usage.add("sub_1", "minutes", "2025-09-02T00:00:00Z", { min: 8 });
    expect(amounts(await one("minutes", { min: 5 }))).toEqual([550, "5.0", 1]);
  });

  it("filters: the event's filter prices it; the high-water mark is kept per filter", async () => {
    const eu = await one("regions", { region: "eu", gb: 5 });
    expect(eu).toMatchObject({
      amount_cents: 1000,
      item: { filters: { region: ["eu"] }, filter_invoice_display_name: "Europe" },
    });
    expect((await one("regions", { region: "us", gb: 5 })).amount_cents).toBe(500);
    // eu: 10 then −4 → current 6, max 10; 2 more stays under the mark.
    usage.add("sub_1", "regions", "2025-09-02T00:00:00Z", { region: "eu", gb: 10 });
    usage.add("sub_1", "regions", "2025-09-03T00:00:00Z", { region: "eu", gb: -4 });
    expect(amounts(await one("regions", { region: "eu", gb: 2 }))).toEqual([0, "2.0", 1]);
    expect(amounts(await one("regions", { region: "eu", gb: 6 }))).toEqual([400, "2.0", 1]);
    expect(amounts(await one("regions", { region: "us", gb: 2 }))).toEqual([200, "2.0", 1]);
  });

  it("prices from a cached period read as from a fresh one; events after now are ignored", async () => {
    usage.add("sub_1", "regions", "2025-09-02T00:00:00Z", { region: "eu", gb: 10 });
    usage.add("sub_1", "regions", "2025-09-03T00:00:00Z", { region: "eu", gb: -4 });
    usage.add("sub_1", "regions", "2025-09-10T00:00:00Z", { region: "eu", gb: 100 });
    const cached = { ...deps, usage: new CachedUsageReader(usage, { ttlMs: 60_000, maxEntries: 10 }) };
    const fee = async (properties: Record<string, unknown>) =>
      (
        await estimateFees(cached, {
          organizationId: org,
          externalSubscriptionId: "sub_1",
          code: "regions",
          properties,
        })
      )[0]!;
    for (let i = 0; i < 2; i++) {
      expect(amounts(await fee({ region: "eu", gb: 2 }))).toEqual([0, "2.0", 1]);
      expect(amounts(await fee({ region: "eu", gb: 6 }))).toEqual([400, "2.0", 1]);
      expect(amounts(await fee({ region: "us", gb: 2 }))).toEqual([200, "2.0", 1]);
    }
    // Once the clock passes it, the later event counts: the mark is 106, all 6 more units are new.
    clock.set("2025-09-11T00:00:00Z");
    expect(amounts(await fee({ region: "eu", gb: 6 }))).toEqual([1200, "6.0", 1]);
  });

  it("pricing groups: each group has its own high-water mark", async () => {
    usage.add("sub_1", "vms", "2025-09-02T00:00:00Z", { cloud: "aws", hours: 10 });
    usage.add("sub_1", "vms", "2025-09-03T00:00:00Z", { cloud: "aws", hours: -10 });
    expect(amounts(await one("vms", { cloud: "aws", hours: 4 }))).toEqual([0, "4.0", 1]);
    const gcp = await one("vms", { cloud: "gcp", hours: 4 });
    expect(gcp).toMatchObject({ amount_cents: 400, item: { grouped_by: { cloud: "gcp" } } });
  });

  it("evaluates the metric's expression into its field", async () => {
    expect(amounts(await one("compute", { a: 3 }))).toEqual([600, "6.0", 1]);
  });
});

describe("estimate_fees refusals", () => {
  it("answers 404 for an unknown subscription, or another organization's", async () => {
    expect(await refusal(estimate("calls", {}, "nope"))).toMatchObject({ status: 404, code: "subscription_not_found" });
    const other = estimateFees(deps, {
      organizationId: randomUUID(),
      externalSubscriptionId: "sub_1",
      code: "calls",
      properties: {},
    });
    expect(await refusal(other)).toMatchObject({ status: 404, code: "subscription_not_found" });
  });

  it("answers 404 for an unknown metric and 422 for a metric without a pay-in-advance charge", async () => {
    expect(await refusal(estimate("unknown"))).toMatchObject({ status: 404, code: "billable_metric_not_found" });
    expect(await refusal(estimate("arrears"))).toMatchObject({
      status: 422,
      code: "validation_errors",
      details: { code: ["does_not_match_an_instant_charge"] },
    });
  });

  it("answers 422 for a field that is not a number, and when the expression cannot be evaluated", async () => {
    expect(await refusal(estimate("storage", { gb: "lots" }))).toMatchObject({
      status: 422,
      details: { properties: ["value_is_not_valid_number"] },
    });
    expect(await refusal(estimate("compute", {}))).toMatchObject({
      status: 422,
      details: { properties: ["Variable: a not found"] },
    });
  });
});
