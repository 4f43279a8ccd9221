import { Client } from "lago-javascript-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lagoFailure } from "../support/lago-client";
import { openapiCheckedFetch } from "../support/openapi-checked-fetch";
import { startE2E, type E2E } from "../support/platform";

/**
 * The official Lago JavaScript client against our API. Every response it receives is checked
 * against the schema Lago's OpenAPI document gives that operation and status (openapiCheckedFetch):
 * a mismatch fails the call. The client speaks `lago_id`; we answer `svc_id`, as the document we
 * check against is renamed the same way.
 */
let e2e: E2E;
let lago: ReturnType<typeof Client>;
const checked = openapiCheckedFetch();

beforeAll(async () => {
  e2e = await startE2E("lago_client");
  const org = await e2e.organization("Lago Client Inc");
  lago = Client(org.api_key, { baseUrl: `${e2e.platform.baseUrl}/api/v1`, customFetch: checked.fetch as typeof fetch });
});

afterAll(async () => {
  await e2e?.stop();
});

const failure = lagoFailure;

/** Lago's PaginationMeta for a page of a collection. */
const meta = (page: number, perPage: number, total: number) => {
  const pages = Math.ceil(total / perPage);
  return {
    current_page: page,
    next_page: page < pages ? page + 1 : null,
    prev_page: page > 1 ? page - 1 : null,
    total_pages: pages,
    total_count: total,
  };
};

const codes = (items: Array<{ code: string }>) => items.map((i) => i.code);
/** An id as we answer it (`svc_*`), which the client's types call `lago_*` and so do not know. */
const svcOf = (o: object, key: `svc_${string}` = "svc_id") => (o as Record<string, string>)[key]!;

describe("the Lago JavaScript client", () => {
  const metricIds = { api_calls: "", seats: "" };

  it("creates taxes, billable metrics, add-ons, coupons and plans", async () => {
    const vat = (
      await lago.taxes.createTax({ tax: { name: "VAT", code: "vat", rate: "20.0", description: "standard rate" } })
    ).data.tax;
    expect(vat).toMatchObject({ code: "vat", rate: 20, applied_to_organization: false, description: "standard rate" });
    await lago.taxes.createTax({ tax: { name: "Reduced VAT", code: "vat_reduced", rate: "5.5" } });
    const zero = (await lago.taxes.createTax({ tax: { name: "Exempt", code: "vat_exempt", rate: "0" } })).data.tax;
    expect(zero).toMatchObject({ rate: 0, description: null });

    const calls = await lago.billableMetrics.createBillableMetric({
      billable_metric: {
        name: "API calls",
        code: "api_calls",
        aggregation_type: "sum_agg",
        field_name: "calls",
        recurring: false,
        filters: [{ key: "region", values: ["eu", "us"] }],
      },
    });
    expect(calls.data.billable_metric).toMatchObject({
      code: "api_calls",
      aggregation_type: "sum_agg",
      filters: [{ key: "region", values: ["eu", "us"] }],
    });
    const seats = await lago.billableMetrics.createBillableMetric({
      billable_metric: {
        name: "Seats",
        code: "seats",
        aggregation_type: "unique_count_agg",
        field_name: "user_id",
        recurring: true,
      },
    });
    expect(seats.data.billable_metric).toMatchObject({
      recurring: true,
      weighted_interval: null,
      expression: null,
      filters: [],
    });
    metricIds.api_calls = svcOf(calls.data.billable_metric);
    metricIds.seats = svcOf(seats.data.billable_metric);

    const setup = await lago.addOns.createAddOn({
      add_on: { name: "Setup", code: "setup", amount_cents: 50_000, amount_currency: "EUR", tax_codes: ["vat"] },
    });
    expect(setup.data.add_on).toMatchObject({
      amount_cents: 50_000,
      amount_currency: "EUR",
      taxes: [expect.objectContaining({ code: "vat", rate: 20 })],
    });
    await lago.addOns.createAddOn({
      add_on: {
        name: "Training",
        code: "training",
        amount_cents: 20_000,
        amount_currency: "EUR",
        description: "half a day",
      },
    });

    const welcome = await lago.coupons.createCoupon({
      coupon: {
        name: "Welcome",
        code: "welcome",
        coupon_type: "fixed_amount",
        amount_cents: 1_000,
        amount_currency: "EUR",
        frequency: "once",
        expiration: "no_expiration",
      },
    });
    expect(welcome.data.coupon).toMatchObject({
      amount_cents: 1_000,
      percentage_rate: null,
      reusable: true,
      expiration_at: null,
    });
    const loyal = await lago.coupons.createCoupon({
      coupon: {
        name: "Loyalty",
        code: "loyalty",
        coupon_type: "percentage",
        percentage_rate: "10",
        frequency: "recurring",
        frequency_duration: 3,
        expiration: "time_limit",
        expiration_at: "2099-12-31T00:00:00Z",
        reusable: false,
      },
    });
    expect(loyal.data.coupon).toMatchObject({
      percentage_rate: "10.0",
      amount_cents: null,
      frequency_duration: 3,
      reusable: false,
    });

    const starter = await lago.plans.createPlan({
      plan: {
        name: "Starter",
        code: "starter",
        interval: "monthly",
        amount_cents: 1_000,
        amount_currency: "EUR",
        pay_in_advance: false,
        tax_codes: ["vat"],
        charges: [
          {
            billable_metric_id: metricIds.api_calls,
            charge_model: "standard",
            properties: { amount: "0.01" },
            tax_codes: ["vat_reduced"],
          },
          {
            billable_metric_id: metricIds.seats,
            charge_model: "graduated",
            properties: {
              graduated_ranges: [
                { from_value: 0, to_value: 5, per_unit_amount: "0", flat_amount: "0" },
                { from_value: 6, to_value: null, per_unit_amount: "4", flat_amount: "0" },
              ],
            },
          },
        ],
      },
    });
    const plan = starter.data.plan;
    expect(plan).toMatchObject({
      code: "starter",
      amount_cents: 1_000,
      taxes: [expect.objectContaining({ code: "vat" })],
    });
    expect(plan.charges?.map((c) => [c.billable_metric_code, c.charge_model, c.taxes?.map((t) => t.code)])).toEqual([
      ["api_calls", "standard", ["vat_reduced"]],
      ["seats", "graduated", []],
    ]);
    await lago.plans.createPlan({
      plan: {
        name: "Pro",
        code: "pro",
        interval: "yearly",
        amount_cents: 100_000,
        amount_currency: "EUR",
        pay_in_advance: true,
        tax_codes: ["vat"],
        charges: [
          {
            billable_metric_id: metricIds.api_calls,
            charge_model: "package",
            properties: { amount: "5", package_size: 1000, free_units: 100 },
          },
        ],
      },
    });

    // every call above went through the checked fetch
    expect(new Set(checked.exchanges.map((e) => e.operationId))).toEqual(
      new Set(["createTax", "createBillableMetric", "createAddOn", "createCoupon", "createPlan"]),
    );
  });

  it("lists every catalog resource page by page, newest first", async () => {
    type Listed = "taxes" | "billable_metrics" | "add_ons" | "coupons" | "plans";
    type Page = { data: { meta: unknown } & Partial<Record<Listed, Array<{ code: string }>>> };
    const catalog: Array<{
      key: Listed;
      list: (query: { page?: number; per_page?: number }) => Promise<Page>;
      newestFirst: string[];
    }> = [
      { key: "taxes", list: (q) => lago.taxes.findAllTaxes(q), newestFirst: ["vat_exempt", "vat_reduced", "vat"] },
      {
        key: "billable_metrics",
        list: (q) => lago.billableMetrics.findAllBillableMetrics(q),
        newestFirst: ["seats", "api_calls"],
      },
      { key: "add_ons", list: (q) => lago.addOns.findAllAddOns(q), newestFirst: ["training", "setup"] },
      { key: "coupons", list: (q) => lago.coupons.findAllCoupons(q), newestFirst: ["loyalty", "welcome"] },
      { key: "plans", list: (q) => lago.plans.findAllPlans(q), newestFirst: ["pro", "starter"] },
    ];
    for (const { key, list, newestFirst } of catalog) {
      const total = newestFirst.length;
      const all = (await list({})).data;
      expect(codes(all[key] as Array<{ code: string }>), key).toEqual(newestFirst);
      expect(all.meta, key).toEqual(meta(1, 100, total));
      const second = (await list({ page: 2, per_page: 1 })).data;
      expect(codes(second[key] as Array<{ code: string }>), key).toEqual([newestFirst[1]]);
      expect(second.meta, key).toEqual(meta(2, 1, total));
    }
    expect(checked.exchanges.filter((e) => e.operationId.startsWith("findAll")).map((e) => e.schema)).toEqual(
      ["TaxesPaginated", "BillableMetricsPaginated", "AddOnsPaginated", "CouponsPaginated", "PlansPaginated"].flatMap(
        (s) => [s, s],
      ),
    );
  });

  it("reads, updates and deletes catalog resources", async () => {
    expect((await lago.taxes.findTax("vat_reduced")).data.tax.rate).toBe(5.5);
    expect(
      (await lago.taxes.updateTax("vat_reduced", { tax: { rate: "7", description: "lowered" } })).data.tax,
    ).toMatchObject({ rate: 7, description: "lowered" });
    expect((await lago.taxes.destroyTax("vat_exempt")).data.tax.code).toBe("vat_exempt");

    const seats = await lago.billableMetrics.updateBillableMetric("seats", {
      billable_metric: { description: "distinct users", filters: [{ key: "tier", values: ["pro"] }] },
    });
    expect(seats.data.billable_metric).toMatchObject({
      description: "distinct users",
      field_name: "user_id",
      filters: [{ key: "tier", values: ["pro"] }],
    });
    expect((await lago.billableMetrics.findBillableMetric("seats")).data.billable_metric).toEqual(
      seats.data.billable_metric,
    );
    await lago.billableMetrics.createBillableMetric({
      billable_metric: { name: "Temporary", code: "temporary", aggregation_type: "count_agg" },
    });
    expect((await lago.billableMetrics.destroyBillableMetric("temporary")).data.billable_metric.code).toBe("temporary");

    expect(
      (await lago.addOns.updateAddOn("setup", { add_on: { invoice_display_name: "Onboarding", tax_codes: [] } })).data
        .add_on,
    ).toMatchObject({
      invoice_display_name: "Onboarding",
      amount_cents: 50_000,
      taxes: [],
    });
    expect((await lago.addOns.findAddOn("training")).data.add_on.description).toBe("half a day");
    expect((await lago.addOns.destroyAddOn("training")).data.add_on.code).toBe("training");

    expect(
      (await lago.coupons.updateCoupon("welcome", { coupon: { name: "Welcome aboard" } })).data.coupon,
    ).toMatchObject({ name: "Welcome aboard", amount_cents: 1_000 });
    await lago.coupons.createCoupon({
      coupon: {
        name: "Gone",
        code: "gone",
        coupon_type: "percentage",
        percentage_rate: "5",
        frequency: "forever",
        expiration: "no_expiration",
      },
    });
    expect((await lago.coupons.destroyCoupon("gone")).data.coupon).toMatchObject({
      code: "gone",
      terminated_at: expect.any(String),
    });
    expect((await lago.coupons.findCoupon("loyalty")).data.coupon.expiration_at).toBe("2099-12-31T00:00:00.000Z");

    // an optional plan value that is not set is null, as Lago's server sends it
    const starter = (await lago.plans.findPlan("starter")).data.plan;
    expect(starter).toMatchObject({
      description: null,
      invoice_display_name: null,
      trial_period: null,
      minimum_commitment: null,
    });
    const updated = await lago.plans.updatePlan("starter", {
      plan: { description: "for small teams", trial_period: 14 },
    });
    expect(updated.data.plan).toMatchObject({
      description: "for small teams",
      trial_period: 14,
      charges: starter.charges,
    });
    expect((await lago.plans.destroyPlan("pro")).data.plan.code).toBe("pro");
  });

  it("answers errors in Lago's shapes: 404 for an unknown code, 422 for a duplicate, 401 for an unknown key", async () => {
    expect(await failure(lago.taxes.findTax("nope"))).toEqual({
      status: 404,
      error: { status: 404, error: "Not Found", code: "tax_not_found" },
    });
    expect(await failure(lago.plans.findPlan("pro"))).toEqual({
      status: 404,
      error: { status: 404, error: "Not Found", code: "plan_not_found" },
    });
    expect(await failure(lago.taxes.createTax({ tax: { name: "Again", code: "vat", rate: "1" } }))).toEqual({
      status: 422,
      error: {
        status: 422,
        error: "Unprocessable Entity",
        code: "validation_errors",
        error_details: { code: ["value_already_exist"] },
      },
    });
    const stranger = Client("sk_unknown_key", {
      baseUrl: `${e2e.platform.baseUrl}/api/v1`,
      customFetch: checked.fetch as typeof fetch,
    });
    expect(await failure(stranger.coupons.findAllCoupons())).toEqual({
      status: 401,
      error: { status: 401, error: "Unauthorized" },
    });
    expect(checked.exchanges.filter((e) => e.status !== 200).map((e) => e.schema)).toEqual([
      "ApiErrorNotFound",
      "ApiErrorNotFound",
      "ApiErrorUnprocessableEntity",
      "ApiErrorUnauthorized",
    ]);
  });

  const customer = "cust_lago_client";
  const subscriptionId = "sub_lago_client";

  it("subscribes a customer it does not know yet, creating the customer", async () => {
    const created = await lago.subscriptions.createSubscription({
      subscription: {
        external_customer_id: customer,
        plan_code: "starter",
        external_id: subscriptionId,
        billing_time: "anniversary",
      },
    });
    expect(created.data.subscription).toMatchObject({
      external_id: subscriptionId,
      external_customer_id: customer,
      plan_code: "starter",
      status: "active",
      billing_time: "anniversary",
      plan: expect.objectContaining({ code: "starter" }),
    });
    const found = await lago.customers.findCustomer(customer);
    expect(found.data.customer).toMatchObject({
      external_id: customer,
      svc_id: svcOf(created.data.subscription, "svc_customer_id"),
    });
  });

  it("applies coupons to the customer", async () => {
    const welcome = await lago.appliedCoupons.applyCoupon({
      applied_coupon: { external_customer_id: customer, coupon_code: "welcome" },
    });
    expect(welcome.data.applied_coupon).toMatchObject({
      coupon_code: "welcome",
      external_customer_id: customer,
      status: "active",
      amount_cents: 1_000,
      amount_currency: "EUR",
      frequency: "once",
    });
    const loyal = await lago.appliedCoupons.applyCoupon({
      applied_coupon: { external_customer_id: customer, coupon_code: "loyalty" },
    });
    expect(loyal.data.applied_coupon).toMatchObject({
      coupon_code: "loyalty",
      percentage_rate: "10.0",
      frequency: "recurring",
      frequency_duration: 3,
    });
    // loyalty is not reusable
    expect(
      await failure(
        lago.appliedCoupons.applyCoupon({ applied_coupon: { external_customer_id: customer, coupon_code: "loyalty" } }),
      ),
    ).toMatchObject({
      status: 422,
      error: { code: "validation_errors", error_details: { coupon: ["coupon_is_not_reusable"] } },
    });
  });

  it("lists applied coupons filtered by coupon_code[]", async () => {
    const one = await lago.appliedCoupons.findAllAppliedCoupons({ "coupon_code[]": ["loyalty"] });
    expect(one.data.applied_coupons.map((c) => c.coupon_code)).toEqual(["loyalty"]);
    expect(one.data.meta).toEqual(meta(1, 100, 1));
    const both = await lago.appliedCoupons.findAllAppliedCoupons({
      "coupon_code[]": ["welcome", "loyalty"],
      external_customer_id: customer,
    });
    expect(both.data.applied_coupons.map((c) => c.coupon_code).sort()).toEqual(["loyalty", "welcome"]);
    const paged = await lago.appliedCoupons.findAllAppliedCoupons({
      "coupon_code[]": ["welcome", "loyalty"],
      page: 2,
      per_page: 1,
    });
    expect(paged.data.meta).toEqual(meta(2, 1, 2));
    expect(
      (await lago.appliedCoupons.findAllAppliedCoupons({ "coupon_code[]": ["nope"] })).data.applied_coupons,
    ).toEqual([]);
  });

  it("lists the customer's subscriptions", async () => {
    const list = await lago.subscriptions.findAllSubscriptions({ external_customer_id: customer });
    expect(list.data.subscriptions.map((s) => [s.external_id, s.status, s.plan_code])).toEqual([
      [subscriptionId, "active", "starter"],
    ]);
    expect(list.data.meta).toEqual(meta(1, 100, 1));
    expect(
      (await lago.subscriptions.findAllSubscriptions({ external_customer_id: "someone_else" })).data.subscriptions,
    ).toEqual([]);
  });

  it("terminates the subscription", async () => {
    const terminated = await lago.subscriptions.destroySubscription(subscriptionId);
    expect(terminated.data.subscription).toMatchObject({
      external_id: subscriptionId,
      status: "terminated",
      terminated_at: expect.any(String),
    });
    expect(
      (await lago.subscriptions.findAllSubscriptions({ external_customer_id: customer })).data.subscriptions,
    ).toEqual([]);
    const history = await lago.subscriptions.findAllSubscriptions({
      external_customer_id: customer,
      "status[]": ["terminated"],
    });
    expect(history.data.subscriptions.map((s) => [s.external_id, s.status])).toEqual([[subscriptionId, "terminated"]]);
    expect(await failure(lago.subscriptions.destroySubscription(subscriptionId))).toMatchObject({
      status: 404,
      error: { code: "subscription_not_found" },
    });
  });
});

describe("the Lago JavaScript client on invoices", () => {
  it("lists invoices, finalizes a draft once, and gets invoice_not_found for a second finalization and an unknown id", async () => {
    const sandbox = await e2e.sandbox("Lago Client Billing", "2024-01-01T00:00:00Z");
    const client = Client(sandbox.api_key, {
      baseUrl: `${e2e.platform.baseUrl}/api/v1`,
      customFetch: checked.fetch as typeof fetch,
    });
    await client.plans.createPlan({
      plan: {
        name: "Monthly",
        code: "monthly",
        interval: "monthly",
        amount_cents: 1_500,
        amount_currency: "EUR",
        pay_in_advance: false,
      },
    });
    await client.customers.createCustomer({
      customer: { external_id: "lago_cus", currency: "EUR", billing_configuration: { invoice_grace_period: 2 } },
    });
    await client.subscriptions.createSubscription({
      subscription: { external_customer_id: "lago_cus", plan_code: "monthly", external_id: "lago_sub" },
    });
    // the test clock is beyond Lago's API: moved with a plain request
    const headers = { "content-type": "application/json", authorization: `Bearer ${sandbox.api_key}` };
    await fetch(`${e2e.platform.baseUrl}/api/v1/test_clock/advance`, {
      method: "POST",
      headers,
      body: JSON.stringify({ test_clock: { frozen_time: "2024-02-01T00:00:00Z" } }),
    });
    for (let i = 0; i < 200; i++) {
      const clock = (await (await fetch(`${e2e.platform.baseUrl}/api/v1/test_clock`, { headers })).json()) as {
        test_clock: { status: string };
      };
      if (clock.test_clock.status === "ready") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const drafts = (
      await client.invoices.findAllInvoices({ external_customer_id: "lago_cus", "statuses[]": ["draft"] })
    ).data;
    expect(drafts.invoices).toHaveLength(1);
    expect(drafts.invoices[0]).toMatchObject({ status: "draft", fees_amount_cents: 1_500, currency: "EUR" });
    const id = drafts.invoices[0]!.lago_id ?? (drafts.invoices[0] as unknown as { svc_id: string }).svc_id;
    const finalized = (await client.invoices.finalizeInvoice(id)).data.invoice;
    expect(finalized).toMatchObject({ status: "finalized", total_amount_cents: 1_500 });
    expect((await client.invoices.findInvoice(id)).data.invoice.status).toBe("finalized");
    expect(await failure(client.invoices.finalizeInvoice(id))).toMatchObject({
      status: 404,
      error: { code: "invoice_not_found" },
    });
    expect(await failure(client.invoices.findInvoice("00000000-0000-4000-8000-000000000000"))).toMatchObject({
      status: 404,
      error: { code: "invoice_not_found" },
    });
    expect((await client.invoices.findAllInvoices({ "statuses[]": ["finalized"] })).data.invoices).toHaveLength(1);

    // payments: one manual payment of part of it, listed (all, by customer, by invoice); an unknown one is payment_not_found
    const payment = (
      await client.payments.createPayment({ payment: { invoice_id: id, amount_cents: 500, reference: "lago client" } })
    ).data.payment;
    expect(payment).toMatchObject({
      amount_cents: 500,
      payment_status: "succeeded",
      type: "manual",
      invoice_ids: [id],
    });
    const paymentId = payment.lago_id ?? (payment as unknown as { svc_id: string }).svc_id;
    const ids = (list: Array<{ lago_id?: string }>) =>
      list.map((p) => p.lago_id ?? (p as unknown as { svc_id: string }).svc_id);
    expect(ids((await client.payments.findAllPayments()).data.payments)).toEqual([paymentId]);
    expect(ids((await client.payments.findAllPayments({ external_customer_id: "lago_cus" })).data.payments)).toEqual([
      paymentId,
    ]);
    expect((await client.payments.findAllPayments({ external_customer_id: "someone_else" })).data.payments).toEqual([]);
    expect(ids((await client.payments.findAllPayments({ invoice_id: id })).data.payments)).toEqual([paymentId]);
    expect(await failure(client.payments.findPayment("00000000-0000-4000-8000-000000000000"))).toMatchObject({
      status: 404,
      error: { code: "payment_not_found" },
    });
    expect((await client.invoices.findInvoice(id)).data.invoice).toMatchObject({ payment_status: "pending" });
  });
});
