import { Client } from "lago-javascript-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";
import { openapiCheckedFetch } from "../support/openapi-checked-fetch";
import { startE2E, type E2E } from "../support/platform";

/**
 * POST /events/estimate_fees through the whole platform: the catalog publishes the metric, plan
 * and subscription; the usage service's read copies follow; the estimate prices from them.
 */
let e2e: E2E;
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;
let keyA: string;
let storageId: string;
let seatsId: string;

const charges = (amount: string) => [
  {
    billable_metric_id: storageId,
    charge_model: "standard",
    pay_in_advance: true,
    invoiceable: false,
    properties: { amount },
    tax_codes: ["vat"],
  },
  { billable_metric_id: seatsId, charge_model: "standard", pay_in_advance: true, properties: { amount: "10" } },
];

beforeAll(async () => {
  e2e = await startE2E("estimate_fees");
  keyA = (await e2e.organization("Acme Corp")).api_key;
  asA = api(e2e.platform.baseUrl, keyA);
  asB = api(e2e.platform.baseUrl, (await e2e.organization("Globex")).api_key);
  expect((await asA("POST", "/taxes", { tax: { name: "VAT", code: "vat", rate: "20" } })).status).toBe(200);
  const storage = await asA("POST", "/billable_metrics", {
    billable_metric: { name: "Storage", code: "storage", aggregation_type: "sum_agg", field_name: "gb" },
  });
  storageId = storage.body.billable_metric.svc_id;
  const seats = await asA("POST", "/billable_metrics", {
    billable_metric: { name: "Seats", code: "seats", aggregation_type: "unique_count_agg", field_name: "seat" },
  });
  seatsId = seats.body.billable_metric.svc_id;
  const calls = await asA("POST", "/billable_metrics", {
    billable_metric: { name: "Calls", code: "calls", aggregation_type: "count_agg" },
  });
  const plan = await asA("POST", "/plans", {
    plan: {
      name: "Usage",
      code: "usage",
      interval: "monthly",
      amount_cents: 0,
      amount_currency: "EUR",
      pay_in_advance: false,
      charges: [
        ...charges("2"),
        {
          billable_metric_id: calls.body.billable_metric.svc_id,
          charge_model: "standard",
          properties: { amount: "1" },
        },
      ],
    },
  });
  expect(plan.status).toBe(200);
  const sub = await asA("POST", "/subscriptions", {
    subscription: { external_customer_id: "cus_1", plan_code: "usage", external_id: "sub_1" },
  });
  expect(sub.status).toBe(200);
});

afterAll(async () => {
  await e2e?.stop();
});

const estimate = (as: ReturnType<typeof api>, event: Record<string, unknown>) =>
  as("POST", "/events/estimate_fees", { event });

describe("POST /events/estimate_fees end to end", () => {
  it("prices the event on the subscription's pay-in-advance charge once the usage service's copy has it", async () => {
    const event = { code: "storage", external_subscription_id: "sub_1", properties: { gb: 3 } };
    await waitFor(async () => (await estimate(asA, event)).status !== 404, {
      what: "the usage service's copy of the subscription",
      timeoutMs: 20_000,
    });
    const res = await estimate(asA, event);
    expect(res.status).toBe(200);
    expect(openapiErrors("Fees", res.body)).toEqual([]);
    expect(res.body.fees).toHaveLength(1);
    expect(res.body.fees[0]).toMatchObject({
      svc_id: null,
      svc_invoice_id: null,
      amount_cents: 600,
      amount_currency: "EUR",
      units: "3.0",
      events_count: 1,
      pay_in_advance: true,
      invoiceable: false,
      taxes_amount_cents: 120,
      taxes_rate: 20,
      total_amount_cents: 720,
      external_subscription_id: "sub_1",
      external_customer_id: "cus_1",
      item: { type: "charge", code: "storage", name: "Storage", item_type: "BillableMetric", svc_item_id: storageId },
      applied_taxes: [{ tax_code: "vat", amount_cents: 120 }],
    });
  });

  it("answers the official Lago client, as Lago's OpenAPI document describes", async () => {
    const checked = openapiCheckedFetch();
    const lago = Client(keyA, {
      baseUrl: `${e2e.platform.baseUrl}/api/v1`,
      customFetch: checked.fetch as typeof fetch,
    });
    const { data } = await lago.events.eventEstimateFees({
      event: { code: "storage", external_subscription_id: "sub_1", properties: { gb: "1.5" } },
    });
    expect(data.fees[0]).toMatchObject({ amount_cents: 300, units: "1.5", total_amount_cents: 360 });
    expect(checked.exchanges.map((e) => `${e.operationId} ${e.status}`)).toEqual(["eventEstimateFees 200"]);
  });

  it("takes the period's stored events into account: a seat already counted is free", async () => {
    const seat = (id: string) =>
      estimate(asA, { code: "seats", external_subscription_id: "sub_1", properties: { seat: id } });
    expect((await seat("alice")).body.fees[0]).toMatchObject({ amount_cents: 1000, units: "1.0" });
    const sent = await asA("POST", "/events", {
      event: {
        transaction_id: "tx_alice",
        code: "seats",
        external_subscription_id: "sub_1",
        properties: { seat: "alice" },
      },
    });
    expect(sent.status).toBe(200);
    await waitFor(async () => (await seat("alice")).body.fees[0].amount_cents === 0, {
      what: "the stored event in the estimate",
      timeoutMs: 20_000,
    });
    expect((await seat("alice")).body.fees[0]).toMatchObject({ amount_cents: 0, units: "0.0", events_count: 1 });
    expect((await seat("bob")).body.fees[0]).toMatchObject({ amount_cents: 1000, units: "1.0" });
  });

  it("follows a plan update", async () => {
    const updated = await asA("PUT", "/plans/usage", { plan: { charges: charges("5") } });
    expect(updated.status).toBe(200);
    await waitFor(
      async () =>
        (await estimate(asA, { code: "storage", external_subscription_id: "sub_1", properties: { gb: 1 } })).body
          .fees?.[0]?.amount_cents === 500,
      {
        what: "the plan update in the usage service's copy",
        timeoutMs: 20_000,
      },
    );
  });

  it("answers 404 for an unknown subscription or metric, 422 for a metric without a pay-in-advance charge, 400 without an event", async () => {
    expect(await estimate(asA, { code: "storage", external_subscription_id: "nope", properties: { gb: 1 } })).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "subscription_not_found" },
    });
    expect(await estimate(asA, { code: "nope", external_subscription_id: "sub_1" })).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "billable_metric_not_found" },
    });
    expect(await estimate(asA, { code: "calls", external_subscription_id: "sub_1" })).toEqual({
      status: 422,
      body: {
        status: 422,
        error: "Unprocessable Entity",
        code: "validation_errors",
        error_details: { code: ["does_not_match_an_instant_charge"] },
      },
    });
    expect(
      (await estimate(asA, { code: "storage", external_subscription_id: "sub_1", properties: { gb: "many" } })).body,
    ).toMatchObject({
      status: 422,
      error_details: { properties: ["value_is_not_valid_number"] },
    });
    expect((await asA("POST", "/events/estimate_fees", {})).status).toBe(400);
  });

  it("never lets another organization estimate on the first one's subscription", async () => {
    expect(
      await estimate(asB, { code: "storage", external_subscription_id: "sub_1", properties: { gb: 1 } }),
    ).toMatchObject({
      status: 404,
      body: { code: "subscription_not_found" },
    });
  });

  it("stops estimating once the subscription is terminated", async () => {
    expect((await asA("DELETE", "/subscriptions/sub_1")).status).toBe(200);
    await waitFor(
      async () =>
        (await estimate(asA, { code: "storage", external_subscription_id: "sub_1", properties: { gb: 1 } })).status ===
        404,
      {
        what: "the termination in the usage service's copy",
        timeoutMs: 20_000,
      },
    );
  });
});
