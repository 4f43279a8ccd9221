import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2E, type E2E } from "../support/platform";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";

let e2e: E2E;
let nats: NatsConnection;
let orgA: { organization_id: string; api_key: string };
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("catalog");
  const { natsUrl } = e2e;
  orgA = await e2e.organization("Acme Corp");
  const orgB = await e2e.organization("Globex");
  asA = api(e2e.platform.baseUrl, orgA.api_key);
  asB = api(e2e.platform.baseUrl, orgB.api_key);
  nats = await connect({ servers: natsUrl });
});

afterAll(async () => {
  await nats?.close();
  await e2e?.stop();
});

const unprocessable = (error_details: Record<string, string[]>) => ({
  status: 422,
  body: { status: 422, error: "Unprocessable Entity", code: "validation_errors", error_details },
});
const notFound = (code: string) => ({ status: 404, body: { status: 404, error: "Not Found", code } });

describe("taxes end to end", () => {
  it("creates, reads, updates, lists and deletes a tax in Lago's shape", async () => {
    const created = await asA("POST", "/taxes", {
      tax: { name: "French VAT", code: "fr_vat", rate: "20.0", description: "standard" },
    });
    expect(created.status).toBe(200);
    expect(openapiErrors("Tax", created.body)).toEqual([]);
    expect(created.body.tax).toMatchObject({
      code: "fr_vat",
      rate: 20,
      applied_to_organization: false,
      description: "standard",
    });

    const byNumber = await asA("POST", "/taxes", { tax: { name: "Reduced", code: "fr_reduced", rate: 5.5 } });
    expect(byNumber.body.tax.rate).toBe(5.5);

    const got = await asA("GET", "/taxes/fr_vat");
    expect(got.body).toEqual(created.body);
    const updated = await asA("PUT", "/taxes/fr_vat", { tax: { rate: "19.6" } });
    expect(openapiErrors("Tax", updated.body)).toEqual([]);
    expect(updated.body.tax).toMatchObject({ svc_id: created.body.tax.svc_id, name: "French VAT", rate: 19.6 });

    const list = await asA("GET", "/taxes?per_page=1");
    expect(openapiErrors("TaxesPaginated", list.body)).toEqual([]);
    expect(list.body.taxes.map((t: { code: string }) => t.code)).toEqual(["fr_reduced"]);
    expect(list.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, total_count: 2 });

    const deleted = await asA("DELETE", "/taxes/fr_reduced");
    expect(deleted.status).toBe(200);
    expect(openapiErrors("Tax", deleted.body)).toEqual([]);
    expect(await asA("GET", "/taxes/fr_reduced")).toEqual(notFound("tax_not_found"));
    expect((await asA("POST", "/taxes", { tax: { name: "Again", code: "fr_reduced", rate: "5.5" } })).status).toBe(200);
  });

  it("answers 422 on a duplicate code and on invalid input (storing nothing), 404 on an unknown code, 400 without wrapper", async () => {
    expect(await asA("POST", "/taxes", { tax: { name: "Dup", code: "fr_vat", rate: "1" } })).toEqual(
      unprocessable({ code: ["value_already_exist"] }),
    );
    expect(await asA("POST", "/taxes", { tax: { code: "bad_tax", rate: "abc" } })).toEqual(
      unprocessable({ name: ["value_is_mandatory"], rate: ["value_is_invalid"] }),
    );
    expect(await asA("GET", "/taxes/bad_tax")).toEqual(notFound("tax_not_found"));
    expect(await asA("PUT", "/taxes/nope", { tax: { name: "x" } })).toEqual(notFound("tax_not_found"));
    expect(await asA("DELETE", "/taxes/nope")).toEqual(notFound("tax_not_found"));
    expect((await asA("POST", "/taxes", { name: "x" })).status).toBe(400);
  });
});

describe("billable metrics end to end", () => {
  it("creates a metric in Lago's shape and publishes billable_metric.created", async () => {
    const events = nats.subscribe("billing.catalog.billable_metric.created");
    const res = await asA("POST", "/billable_metrics", {
      billable_metric: {
        name: "Storage",
        code: "storage",
        aggregation_type: "sum_agg",
        field_name: "gb",
        recurring: false,
        rounding_function: "round",
        rounding_precision: 2,
        filters: [{ key: "region", values: ["eu", "us"] }],
      },
    });
    expect(res.status).toBe(200);
    expect(openapiErrors("BillableMetric", res.body)).toEqual([]);
    expect(res.body.billable_metric).toMatchObject({
      code: "storage",
      aggregation_type: "sum_agg",
      field_name: "gb",
      weighted_interval: null,
      expression: null,
      rounding_function: "round",
      rounding_precision: 2,
      description: null,
      filters: [{ key: "region", values: ["eu", "us"] }],
    });
    for await (const msg of events) {
      const envelope = msg.json<{
        type: string;
        organization_id: string;
        data: { billable_metric: { svc_id: string; code: string } };
      }>();
      if (envelope.organization_id !== orgA.organization_id) continue;
      expect(envelope.type).toBe("billing.catalog.billable_metric.created");
      expect(envelope.data.billable_metric).toMatchObject({ svc_id: res.body.billable_metric.svc_id, code: "storage" });
      break;
    }
  });

  it("reads, updates, lists and deletes metrics", async () => {
    await asA("POST", "/billable_metrics", {
      billable_metric: {
        name: "Seats",
        code: "seats",
        aggregation_type: "weighted_sum_agg",
        field_name: "seats",
        recurring: true,
        expression: "event.properties.seats * 2",
      },
    });
    const seats = await asA("GET", "/billable_metrics/seats");
    expect(openapiErrors("BillableMetric", seats.body)).toEqual([]);
    expect(seats.body.billable_metric).toMatchObject({
      weighted_interval: "seconds",
      recurring: true,
      expression: "event.properties.seats * 2",
    });

    const updated = await asA("PUT", "/billable_metrics/seats", {
      billable_metric: { name: "Seat-seconds", filters: [] },
    });
    expect(updated.body.billable_metric).toMatchObject({ name: "Seat-seconds", field_name: "seats", filters: [] });

    const list = await asA("GET", "/billable_metrics");
    expect(openapiErrors("BillableMetricsPaginated", list.body)).toEqual([]);
    expect(list.body.billable_metrics.map((m: { code: string }) => m.code)).toEqual(["seats", "storage"]);

    const deleted = await asA("DELETE", "/billable_metrics/seats");
    expect(openapiErrors("BillableMetric", deleted.body)).toEqual([]);
    expect(await asA("GET", "/billable_metrics/seats")).toEqual(notFound("billable_metric_not_found"));
  });

  it("refuses a missing field_name, a bad expression and a duplicate code, storing nothing", async () => {
    expect(
      await asA("POST", "/billable_metrics", {
        billable_metric: { name: "Max", code: "max", aggregation_type: "max_agg" },
      }),
    ).toEqual(unprocessable({ field_name: ["value_is_mandatory"] }));
    expect(
      await asA("POST", "/billable_metrics", {
        billable_metric: { name: "E", code: "max", aggregation_type: "count_agg", expression: "1 +" },
      }),
    ).toEqual(unprocessable({ expression: ["invalid_expression"] }));
    expect(
      await asA("POST", "/billable_metrics", {
        billable_metric: { name: "E", code: "max", aggregation_type: "median_agg" },
      }),
    ).toEqual(unprocessable({ aggregation_type: ["value_is_invalid"] }));
    expect(await asA("GET", "/billable_metrics/max")).toEqual(notFound("billable_metric_not_found"));
    expect(
      await asA("POST", "/billable_metrics", {
        billable_metric: { name: "S", code: "storage", aggregation_type: "count_agg" },
      }),
    ).toEqual(unprocessable({ code: ["value_already_exist"] }));
  });
});

describe("add-ons end to end", () => {
  it("creates an add-on with its taxes, then reads, updates, lists and deletes it", async () => {
    const created = await asA("POST", "/add_ons", {
      add_on: { name: "Setup", code: "setup", amount_cents: 50_000, amount_currency: "EUR", tax_codes: ["fr_vat"] },
    });
    expect(created.status).toBe(200);
    expect(openapiErrors("AddOn", created.body)).toEqual([]);
    expect(created.body.add_on).toMatchObject({
      amount_cents: 50_000,
      amount_currency: "EUR",
      invoice_display_name: null,
      description: null,
    });
    expect(created.body.add_on.taxes).toEqual([expect.objectContaining({ code: "fr_vat", rate: 19.6 })]);

    const updated = await asA("PUT", "/add_ons/setup", {
      add_on: { invoice_display_name: "Setup fee", tax_codes: [] },
    });
    expect(updated.body.add_on).toMatchObject({ invoice_display_name: "Setup fee", amount_cents: 50_000, taxes: [] });
    expect(openapiErrors("AddOn", (await asA("GET", "/add_ons/setup")).body)).toEqual([]);

    const list = await asA("GET", "/add_ons");
    expect(openapiErrors("AddOnsPaginated", list.body)).toEqual([]);
    expect(list.body.meta).toEqual({
      current_page: 1,
      next_page: null,
      prev_page: null,
      total_pages: 1,
      total_count: 1,
    });

    expect(openapiErrors("AddOn", (await asA("DELETE", "/add_ons/setup")).body)).toEqual([]);
    expect(await asA("GET", "/add_ons/setup")).toEqual(notFound("add_on_not_found"));
  });

  it("answers 404 for an unknown tax code and 422 for a bad amount or currency, storing nothing", async () => {
    expect(
      await asA("POST", "/add_ons", {
        add_on: { name: "X", code: "x", amount_cents: 1, amount_currency: "EUR", tax_codes: ["nope"] },
      }),
    ).toEqual(notFound("tax_not_found"));
    expect(
      await asA("POST", "/add_ons", { add_on: { name: "X", code: "x", amount_cents: -5, amount_currency: "EURO" } }),
    ).toEqual(unprocessable({ amount_cents: ["value_is_out_of_range"], amount_currency: ["value_is_invalid"] }));
    expect(await asA("GET", "/add_ons/x")).toEqual(notFound("add_on_not_found"));
  });
});

describe("coupons end to end", () => {
  it("creates fixed and percentage coupons in Lago's shape", async () => {
    const fixed = await asA("POST", "/coupons", {
      coupon: {
        name: "Startup",
        code: "startup",
        coupon_type: "fixed_amount",
        amount_cents: 5000,
        amount_currency: "USD",
        frequency: "once",
        expiration: "no_expiration",
      },
    });
    expect(fixed.status).toBe(200);
    expect(openapiErrors("Coupon", fixed.body)).toEqual([]);
    expect(fixed.body.coupon).toMatchObject({
      reusable: true,
      limited_plans: false,
      plan_codes: [],
      limited_billable_metrics: false,
      billable_metric_codes: [],
      percentage_rate: null,
      frequency_duration: null,
      expiration_at: null,
      terminated_at: null,
    });

    const pct = await asA("POST", "/coupons", {
      coupon: {
        name: "Ten",
        code: "ten",
        coupon_type: "percentage",
        percentage_rate: "10",
        frequency: "recurring",
        frequency_duration: 3,
        expiration: "time_limit",
        expiration_at: "2099-01-01T00:00:00Z",
        reusable: false,
        applies_to: { billable_metric_codes: ["storage"] },
      },
    });
    expect(openapiErrors("Coupon", pct.body)).toEqual([]);
    expect(pct.body.coupon).toMatchObject({
      percentage_rate: "10.0",
      amount_cents: null,
      amount_currency: null,
      frequency_duration: 3,
      reusable: false,
      expiration_at: "2099-01-01T00:00:00.000Z",
      limited_billable_metrics: true,
      billable_metric_codes: ["storage"],
    });
  });

  it("updates, lists, and terminates a coupon on DELETE", async () => {
    const plan = {
      name: "Basic",
      code: "basic",
      interval: "monthly",
      amount_cents: 1000,
      amount_currency: "USD",
      pay_in_advance: false,
    };
    expect((await asA("POST", "/plans", { plan })).status).toBe(200);
    const updated = await asA("PUT", "/coupons/startup", {
      coupon: { name: "Startup deal", applies_to: { plan_codes: ["basic"] } },
    });
    expect(updated.body.coupon).toMatchObject({
      name: "Startup deal",
      amount_cents: 5000,
      limited_plans: true,
      plan_codes: ["basic"],
    });

    const list = await asA("GET", "/coupons?page=2&per_page=1");
    expect(openapiErrors("CouponsPaginated", list.body)).toEqual([]);
    expect(list.body.coupons.map((c: { code: string }) => c.code)).toEqual(["startup"]);
    expect(list.body.meta).toEqual({ current_page: 2, next_page: null, prev_page: 1, total_pages: 2, total_count: 2 });

    const terminated = await asA("DELETE", "/coupons/startup");
    expect(openapiErrors("Coupon", terminated.body)).toEqual([]);
    expect(terminated.body.coupon.terminated_at).toEqual(expect.any(String));
    expect(await asA("GET", "/coupons/startup")).toEqual(notFound("coupon_not_found"));
  });

  it("refuses incomplete coupons (422), unknown metrics (404) and duplicate codes, storing nothing", async () => {
    const base = { name: "Bad", code: "bad", frequency: "recurring", expiration: "time_limit" };
    expect(
      await asA("POST", "/coupons", { coupon: { ...base, coupon_type: "fixed_amount", amount_cents: 0 } }),
    ).toEqual(
      unprocessable({
        amount_cents: ["value_is_out_of_range"],
        amount_currency: ["value_is_mandatory"],
        frequency_duration: ["value_is_mandatory"],
        expiration_at: ["value_is_mandatory"],
      }),
    );
    expect(await asA("POST", "/coupons", { coupon: { ...base, coupon_type: "percentage" } })).toEqual(
      unprocessable({
        percentage_rate: ["value_is_mandatory"],
        frequency_duration: ["value_is_mandatory"],
        expiration_at: ["value_is_mandatory"],
      }),
    );
    expect(
      await asA("POST", "/coupons", {
        coupon: { name: "Bad", code: "bad", frequency: "once", expiration: "no_expiration" },
      }),
    ).toEqual(unprocessable({ coupon_type: ["value_is_mandatory"] }));
    expect(
      await asA("POST", "/coupons", {
        coupon: {
          name: "Bad",
          code: "bad",
          coupon_type: "percentage",
          percentage_rate: "5",
          frequency: "once",
          expiration: "no_expiration",
          applies_to: { billable_metric_codes: ["nope"] },
        },
      }),
    ).toEqual(notFound("billable_metric_not_found"));
    expect(await asA("GET", "/coupons/bad")).toEqual(notFound("coupon_not_found"));
    expect(
      await asA("POST", "/coupons", {
        coupon: {
          name: "T",
          code: "ten",
          coupon_type: "percentage",
          percentage_rate: "5",
          frequency: "once",
          expiration: "no_expiration",
        },
      }),
    ).toEqual(unprocessable({ code: ["value_already_exist"] }));
  });
});

describe("catalog isolation between organizations", () => {
  it("shows a second organization none of the first's resources, and lets it reuse their codes", async () => {
    for (const [path, key] of [
      ["/taxes", "taxes"],
      ["/billable_metrics", "billable_metrics"],
      ["/add_ons", "add_ons"],
      ["/coupons", "coupons"],
    ] as const) {
      const list = await asB("GET", path);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        [key]: [],
        meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 },
      });
    }
    expect(await asB("GET", "/taxes/fr_vat")).toEqual(notFound("tax_not_found"));
    expect(await asB("GET", "/billable_metrics/storage")).toEqual(notFound("billable_metric_not_found"));
    expect(await asB("GET", "/coupons/ten")).toEqual(notFound("coupon_not_found"));
    expect(await asB("DELETE", "/taxes/fr_vat")).toEqual(notFound("tax_not_found"));
    expect((await asB("POST", "/taxes", { tax: { name: "VAT", code: "fr_vat", rate: "20" } })).status).toBe(200);
    expect((await asA("GET", "/taxes/fr_vat")).body.tax.rate).toBe(19.6);
  });
});
