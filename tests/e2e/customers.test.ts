import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2E, type E2E } from "../support/platform";
import { api } from "../support/api";
import { openapiErrors } from "../support/openapi";

let e2e: E2E;
let nats: NatsConnection;
let orgA: { organization_id: string; api_key: string };
let orgB: { organization_id: string; api_key: string };
let asA: ReturnType<typeof api>;
let asB: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("customers");
  const { natsUrl } = e2e;
  orgA = await e2e.organization("Acme Corp");
  orgB = await e2e.organization("Globex");
  asA = api(e2e.platform.baseUrl, orgA.api_key);
  asB = api(e2e.platform.baseUrl, orgB.api_key);
  nats = await connect({ servers: natsUrl });
});

afterAll(async () => {
  await nats?.close();
  await e2e?.stop();
});

const fullCustomer = {
  external_id: "cust_001",
  name: "Gavin Belson",
  firstname: "Gavin",
  lastname: "Belson",
  email: "gavin@hooli.test",
  address_line1: "5230 Penfield Ave",
  city: "Woodland Hills",
  zipcode: "91364",
  state: "CA",
  country: "US",
  currency: "USD",
  timezone: "America/Los_Angeles",
  legal_name: "Hooli",
  net_payment_term: 30,
  customer_type: "company",
  billing_configuration: {
    invoice_grace_period: 3,
    payment_provider: "stripe",
    provider_customer_id: "cus_123",
    sync: true,
    document_locale: "fr",
  },
  shipping_address: { address_line1: "1 Main St", city: "Paris", country: "FR", zipcode: "75001" },
  metadata: [{ key: "purchase_order", value: "PO-1", display_in_invoice: true }],
  tax_codes: [],
};

describe("customers end to end", () => {
  it("creates a customer with every field, in Lago's response shape, and publishes customer.created", async () => {
    const created = nats.subscribe("billing.customer.customer.created");
    const res = await asA("POST", "/customers", { customer: fullCustomer });
    expect(res.status).toBe(200);
    const c = res.body.customer;
    expect(openapiErrors("Customer", res.body)).toEqual([]);
    expect(c).toMatchObject({
      external_id: "cust_001",
      sequential_id: 1,
      applicable_timezone: "America/Los_Angeles",
      country: "US",
      currency: "USD",
      billing_entity_code: "default",
      account_type: "customer",
      address_line2: null,
      finalize_zero_amount_invoice: "inherit",
      net_payment_term: 30,
      billing_configuration: {
        invoice_grace_period: 3,
        payment_provider: "stripe",
        provider_customer_id: "cus_123",
        sync: true,
        document_locale: "fr",
        payment_provider_code: null,
      },
      shipping_address: {
        address_line1: "1 Main St",
        address_line2: null,
        city: "Paris",
        country: "FR",
        state: null,
        zipcode: "75001",
      },
      taxes: [],
      integration_customers: [],
      applicable_invoice_custom_sections: [],
      error_details: [],
    });
    expect(c.slug).toMatch(/^ACM-[0-9A-F]{4}-001$/);
    expect(c.metadata).toEqual([
      {
        svc_id: expect.any(String),
        key: "purchase_order",
        value: "PO-1",
        display_in_invoice: true,
        created_at: expect.any(String),
      },
    ]);

    for await (const msg of created) {
      const envelope = msg.json<{ type: string; organization_id: string; data: { customer: { svc_id: string } } }>();
      if (envelope.organization_id !== orgA.organization_id) continue;
      expect(envelope.type).toBe("billing.customer.customer.created");
      expect(envelope.data.customer.svc_id).toBe(c.svc_id);
      break;
    }
  });

  it("updates on the second upsert: same svc_id, changed fields, untouched fields kept", async () => {
    const first = (await asA("GET", "/customers/cust_001")).body.customer;
    const res = await asA("POST", "/customers", {
      customer: {
        external_id: "cust_001",
        name: "Gavin B.",
        email: null,
        metadata: [{ id: first.metadata[0].svc_id, key: "purchase_order", value: "PO-2", display_in_invoice: false }],
      },
    });
    expect(res.status).toBe(200);
    const c = res.body.customer;
    expect(c.svc_id).toBe(first.svc_id);
    expect(c.sequential_id).toBe(1);
    expect([c.name, c.email, c.city, c.currency]).toEqual(["Gavin B.", null, "Woodland Hills", "USD"]);
    expect(c.metadata).toEqual([{ ...first.metadata[0], value: "PO-2", display_in_invoice: false }]);
  });

  it("answers 401 without a key and with a wrong key", async () => {
    expect(await api(e2e.platform.baseUrl)("GET", "/customers")).toEqual({
      status: 401,
      body: { status: 401, error: "Unauthorized" },
    });
    expect(await api(e2e.platform.baseUrl, "nope")("GET", "/customers")).toEqual({
      status: 401,
      body: { status: 401, error: "Unauthorized" },
    });
  });

  it("answers 400 on malformed JSON and on a missing wrapper", async () => {
    expect(await asA("POST", "/customers", undefined, { raw: '{"customer": {' })).toEqual({
      status: 400,
      body: { status: 400, error: "Bad Request" },
    });
    expect(await asA("POST", "/customers", { external_id: "x" })).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: param is missing or the value is empty: customer" },
    });
  });

  it("answers 422 on an invalid country or currency and stores nothing", async () => {
    const res = await asA("POST", "/customers", {
      customer: { external_id: "bad_1", country: "XX", currency: "EURO", timezone: "Mars/Base" },
    });
    expect(res).toEqual({
      status: 422,
      body: {
        status: 422,
        error: "Unprocessable Entity",
        code: "validation_errors",
        error_details: {
          country: ["not_a_valid_country_code"],
          currency: ["value_is_invalid"],
          timezone: ["invalid_timezone"],
        },
      },
    });
    expect((await asA("GET", "/customers/bad_1")).status).toBe(404);
    const missing = await asA("POST", "/customers", { customer: { name: "no id" } });
    expect(missing.status).toBe(422);
    expect(missing.body.error_details).toEqual({ external_id: ["value_is_mandatory"] });
  });

  it("answers 404 customer_not_found, and route_not_found for a route that does not exist", async () => {
    expect(await asA("GET", "/customers/unknown")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
    expect(
      (await asA("GET", "/no_such_route", undefined, { unchecked: "a route that does not exist: no document has it" }))
        .body,
    ).toEqual({
      status: 404,
      error: "Not Found",
      code: "route_not_found",
      message: "No route matches GET /api/v1/no_such_route",
    });
  });

  it("keeps organizations apart", async () => {
    expect((await asB("GET", "/customers/cust_001")).status).toBe(404);
    expect((await asB("DELETE", "/customers/cust_001")).status).toBe(404);
    const list = await asB("GET", "/customers");
    expect(list.body).toEqual({
      customers: [],
      meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, total_count: 0 },
    });
    // the same external_id in B is a different customer, and A's is untouched
    const b = await asB("POST", "/customers", { customer: { external_id: "cust_001", name: "Other" } });
    expect(b.body.customer.sequential_id).toBe(1);
    const a = (await asA("GET", "/customers/cust_001")).body.customer;
    expect(b.body.customer.svc_id).not.toBe(a.svc_id);
    expect(a.name).toBe("Gavin B.");
  });

  it("lists with pagination meta, newest first", async () => {
    for (const id of ["cust_002", "cust_003"]) await asA("POST", "/customers", { customer: { external_id: id } });
    const page1 = await asA("GET", "/customers?page=1&per_page=2");
    expect(page1.status).toBe(200);
    expect(openapiErrors("CustomersPaginated", page1.body)).toEqual([]);
    expect(page1.body.customers.map((c: { external_id: string }) => c.external_id)).toEqual(["cust_003", "cust_002"]);
    expect(page1.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, total_count: 3 });
    const page2 = await asA("GET", "/customers?page=2&per_page=2");
    expect(page2.body.customers.map((c: { external_id: string }) => c.external_id)).toEqual(["cust_001"]);
  });

  it("deletes a customer and frees its external_id", async () => {
    const del = await asA("DELETE", "/customers/cust_003");
    expect(del.status).toBe(200);
    expect(del.body.customer.external_id).toBe("cust_003");
    expect((await asA("GET", "/customers/cust_003")).status).toBe(404);
    const again = await asA("POST", "/customers", { customer: { external_id: "cust_003" } });
    expect(again.body.customer.svc_id).not.toBe(del.body.customer.svc_id);
    expect(again.body.customer.sequential_id).toBe(4);
  });

  it("serves the default billing entity", async () => {
    const res = await asA("GET", "/billing_entities/default");
    expect(res.status).toBe(200);
    expect(res.body.billing_entity).toMatchObject({
      code: "default",
      name: "Acme Corp",
      is_default: true,
      default_currency: "USD",
      timezone: "UTC",
    });
    expect(openapiErrors("BillingEntityObjectExtended", res.body.billing_entity)).toEqual([]);
    expect((await asA("GET", "/billing_entities")).body.billing_entities).toHaveLength(1);
    expect(await asA("GET", "/billing_entities/nope")).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "billing_entity_not_found" },
    });
  });

  it("reports health without a key, and metrics on the metrics port only: the public port answers /metrics 404", async () => {
    const health = await fetch(`${e2e.platform.baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ services: { customer: "serving", payment: "serving" } });
    const publicMetrics = await fetch(`${e2e.platform.baseUrl}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.json()).toEqual({
      status: 404,
      error: "Not Found",
      code: "route_not_found",
      message: "No route matches GET /metrics",
    });
    const metrics = await (await fetch(`http://127.0.0.1:${e2e.platform.env.gateway.METRICS_PORT}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/api\/v1\/customers",status="200"\} \d+/);
    expect(metrics).toMatch(/http_request_duration_seconds_bucket/);
  });

  it("survives concurrent upserts of one new external_id as one customer", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        asA("POST", "/customers", { customer: { external_id: "race_1", name: `n${i}` } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.customer.svc_id)).size).toBe(1);
    const list = await asA("GET", "/customers?per_page=100");
    expect(list.body.customers.filter((c: { external_id: string }) => c.external_id === "race_1")).toHaveLength(1);
  });
});

describe("customer taxes and invoice custom sections end to end", () => {
  let asC: ReturnType<typeof api>;
  let asD: ReturnType<typeof api>;
  let orgC: { organization_id: string; api_key: string };
  const codesOf = (list: Array<{ code: string }>) => list.map((x) => x.code);

  beforeAll(async () => {
    orgC = await e2e.organization("Initech");
    asC = api(e2e.platform.baseUrl, orgC.api_key);
    asD = api(e2e.platform.baseUrl, (await e2e.organization("Umbrella")).api_key);
  });

  it("shows the full taxes of a customer's tax codes, in its responses and its events", async () => {
    const vat = (
      await asC("POST", "/taxes", {
        tax: { name: "French VAT", code: "fr_vat", rate: "20.0", description: "standard" },
      })
    ).body.tax;
    await asC("POST", "/taxes", { tax: { name: "Reduced", code: "fr_reduced", rate: 5.5 } });
    const events = nats.subscribe("billing.customer.customer.created");

    const res = await asC("POST", "/customers", {
      customer: { external_id: "taxed", tax_codes: ["fr_vat", "fr_reduced"] },
    });
    expect(res.status).toBe(200);
    expect(openapiErrors("Customer", res.body)).toEqual([]);
    expect(res.body.customer.taxes).toEqual([
      {
        svc_id: vat.svc_id,
        name: "French VAT",
        code: "fr_vat",
        description: "standard",
        rate: 20,
        applied_to_organization: false,
        created_at: vat.created_at,
      },
      expect.objectContaining({ code: "fr_reduced", rate: 5.5, description: null }),
    ]);
    for await (const msg of events) {
      const envelope = msg.json<{ organization_id: string; data: { customer: { taxes: Array<{ code: string }> } } }>();
      if (envelope.organization_id !== orgC.organization_id) continue;
      expect(codesOf(envelope.data.customer.taxes)).toEqual(["fr_vat", "fr_reduced"]);
      break;
    }

    const got = await asC("GET", "/customers/taxed");
    expect(got.body.customer.taxes).toEqual(res.body.customer.taxes);
    await asC("DELETE", "/taxes/fr_reduced");
    await asC("POST", "/customers", { customer: { external_id: "taxed_too", tax_codes: ["fr_vat"] } });
    const list = await asC("GET", "/customers");
    expect(openapiErrors("CustomersPaginated", list.body)).toEqual([]);
    expect(list.body.customers.map((c: { taxes: Array<{ code: string }> }) => codesOf(c.taxes))).toEqual([
      ["fr_vat"],
      ["fr_vat"],
    ]);
    const deleted = await asC("DELETE", "/customers/taxed_too");
    expect(codesOf(deleted.body.customer.taxes)).toEqual(["fr_vat"]);
  });

  it("answers 404 tax_not_found for an unknown tax code and stores nothing", async () => {
    const taxNotFound = { status: 404, body: { status: 404, error: "Not Found", code: "tax_not_found" } };
    expect(
      await asC("POST", "/customers", { customer: { external_id: "untaxed", tax_codes: ["fr_vat", "nope"] } }),
    ).toEqual(taxNotFound);
    expect((await asC("GET", "/customers/untaxed")).status).toBe(404);
    // another organization's tax is unknown here too
    await asD("POST", "/taxes", { tax: { name: "Theirs", code: "their_vat", rate: "1" } });
    expect(
      await asC("POST", "/customers", {
        customer: { external_id: "taxed", name: "Renamed", tax_codes: ["their_vat"] },
      }),
    ).toEqual(taxNotFound);
    const kept = (await asC("GET", "/customers/taxed")).body.customer;
    expect([kept.name, codesOf(kept.taxes)]).toEqual([null, ["fr_vat"]]);
  });

  it("shows the organization's sections, the customer's own choice, or none when it skips them", async () => {
    const bank = await asC("POST", "/invoice_custom_sections", {
      invoice_custom_section: {
        name: "Bank",
        code: "bank",
        details: "IBAN",
        display_name: "Pay to",
        applied_to_organization: true,
      },
    });
    await asC("POST", "/invoice_custom_sections", { invoice_custom_section: { name: "Own", code: "own" } });

    const fallback = await asC("POST", "/customers", { customer: { external_id: "sections" } });
    expect(openapiErrors("Customer", fallback.body)).toEqual([]);
    expect(fallback.body.customer.applicable_invoice_custom_sections).toEqual([bank.body.invoice_custom_section]);

    const chose = await asC("POST", "/customers", {
      customer: { external_id: "sections", invoice_custom_section_codes: ["own"] },
    });
    expect(codesOf(chose.body.customer.applicable_invoice_custom_sections)).toEqual(["own"]);
    const skipped = await asC("POST", "/customers", {
      customer: { external_id: "sections", skip_invoice_custom_sections: true },
    });
    expect([
      skipped.body.customer.skip_invoice_custom_sections,
      skipped.body.customer.applicable_invoice_custom_sections,
    ]).toEqual([true, []]);
    expect(
      await asC("POST", "/customers", {
        customer: {
          external_id: "sections",
          skip_invoice_custom_sections: true,
          invoice_custom_section_codes: ["own"],
        },
      }),
    ).toEqual({
      status: 422,
      body: {
        status: 422,
        error: "Unprocessable Entity",
        code: "validation_errors",
        error_details: { invoice_custom_sections: ["skip_sections_and_selected_ids_sent_together"] },
      },
    });
    const back = await asC("POST", "/customers", {
      customer: { external_id: "sections", invoice_custom_section_codes: [] },
    });
    expect([
      back.body.customer.skip_invoice_custom_sections,
      codesOf(back.body.customer.applicable_invoice_custom_sections),
    ]).toEqual([false, ["bank"]]);
  });

  it("shows a second organization none of another's sections", async () => {
    const theirs = await asD("POST", "/customers", {
      customer: { external_id: "sections", invoice_custom_section_codes: ["bank", "own"] },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.customer.applicable_invoice_custom_sections).toEqual([]);
    expect((await asD("GET", "/customers/sections")).body.customer.applicable_invoice_custom_sections).toEqual([]);
  });
});
