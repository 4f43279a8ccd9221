import { connect } from "nats";
import { describe, expect, it } from "vitest";
import { Subjects, type Envelope } from "@billing/bus";
import { collectEvents, waitFor } from "@billing/testkit";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import { customer, invoicesOf, ok, plan, subscribe, type Api, type Json } from "../../support/scenario";

// Payment requests on sandbox organizations (the payment requests issue): a customer's overdue
// invoices gathered into one request for what is still due on them. Frozen on Jan 1 2024;
// customer acme (EUR) has 5 days to pay; Basic is 10.00 a month in arrears, so the February 1
// invoice is 1,000 cents, due February 6, overdue from February 7 on the test clock.
const platform = scenarioPlatform("scn_payment_requests");
const CARDS = { succeeds: "4242424242424242", fails: "4000000000000002" };
const NONE = "00000000-0000-4000-8000-000000000000";

const invoice = async (as: Api, id: string) => (await ok(as("GET", `/invoices/${id}`))).invoice as Json;
const requestsOf = async (as: Api, query = "") => ok(as("GET", `/payment_requests${query}`));
const ask = (as: Api, fields: Json) =>
  as("POST", "/payment_requests", {
    payment_request: { email: "billing@acme.test", external_customer_id: "acme", ...fields },
  });

/** acme's invoices as GET /invoices/{id} shows them, oldest first, once the clock is at `until`. */
async function invoicesUntil(as: Api, until: string): Promise<Json[]> {
  await advanceClock(as, until);
  return invoicesOf(as, "acme");
}

describe("payment requests", () => {
  it("gathers overdue invoices for what is still due, with the customer and the invoices as the API shows them", async () => {
    const { organization_id, as } = await platform.sandbox("Requests", "2024-01-01T00:00:00Z");
    const acme = await customer(as, "acme", { net_payment_term: 5, email: "acme@acme.test" });
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    const [february] = await invoicesUntil(as, "2024-02-01T00:30:00Z");
    expect(february).toMatchObject({
      status: "finalized",
      payment_due_date: "2024-02-06",
      payment_overdue: false,
      total_due_amount_cents: 1_000,
    });

    // not overdue yet: refused, nothing stored
    expect(await ask(as, { svc_invoice_ids: [february!.svc_id] })).toMatchObject({
      status: 422,
      body: { code: "validation_errors", error_details: { svc_invoice_ids: ["invoices_not_overdue"] } },
    });
    expect((await requestsOf(as)).payment_requests).toEqual([]);

    // overdue from Feb 7; 400 of it paid by wire, 600 still due
    const [, march] = await invoicesUntil(as, "2024-03-01T00:30:00Z");
    expect(await invoice(as, february!.svc_id)).toMatchObject({ payment_overdue: true });
    await ok(
      as("POST", "/payments", { payment: { invoice_id: february!.svc_id, amount_cents: 400, reference: "wire 1" } }),
    );

    const nc = await connect({ servers: platform.natsUrl() });
    const created = collectEvents<Envelope & { data: { payment_request: Json } }>(
      nc,
      Subjects.payment.paymentRequestCreated,
      organization_id,
    );
    try {
      const first = (await ok(ask(as, { svc_invoice_ids: [february!.svc_id] }))).payment_request as Json;
      expect(first).toMatchObject({
        email: "billing@acme.test",
        amount_cents: 600,
        amount_currency: "EUR",
        payment_status: "pending",
      });
      expect(first.customer).toEqual((await ok(as("GET", "/customers/acme"))).customer);
      expect(first.customer).toMatchObject({ svc_id: acme.svc_id, external_id: "acme" });
      expect(first.invoices).toEqual([await invoice(as, february!.svc_id)]);
      await waitFor(() => created.received.length === 1, { what: "payment_request.created" });
      expect(created.received[0]!.data.payment_request).toMatchObject({
        svc_id: first.svc_id,
        svc_customer_id: acme.svc_id,
        external_customer_id: "acme",
        svc_invoice_ids: [february!.svc_id],
        amount_cents: 600,
        payment_status: "pending",
      });

      // March's invoice is not overdue yet; from March 7 both are, in the order asked
      expect(await ask(as, { svc_invoice_ids: [february!.svc_id, march!.svc_id] })).toMatchObject({
        status: 422,
        body: { error_details: { svc_invoice_ids: ["invoices_not_overdue"] } },
      });
      await advanceClock(as, "2024-03-07T00:30:00Z");
      const second = (await ok(ask(as, { svc_invoice_ids: [march!.svc_id, february!.svc_id] })))
        .payment_request as Json;
      expect(second).toMatchObject({ amount_cents: 1_600, payment_status: "pending" });
      expect(second.invoices.map((i: Json) => [i.svc_id, i.payment_overdue])).toEqual([
        [march!.svc_id, true],
        [february!.svc_id, true],
      ]);

      // read back: one by one (wrapped), listed newest first, by customer and by payment status
      expect((await ok(as("GET", `/payment_requests/${second.svc_id}`))).payment_request).toEqual(second);
      const all = await requestsOf(as);
      expect(all.payment_requests.map((r: Json) => r.svc_id)).toEqual([second.svc_id, first.svc_id]);
      expect(all.meta).toMatchObject({ current_page: 1, total_count: 2, total_pages: 1 });
      const paged = await requestsOf(as, "?per_page=1&page=2");
      expect(paged.payment_requests.map((r: Json) => r.svc_id)).toEqual([first.svc_id]);
      expect(paged.meta).toMatchObject({
        current_page: 2,
        prev_page: 1,
        next_page: null,
        total_pages: 2,
        total_count: 2,
      });
      expect((await requestsOf(as, "?external_customer_id=acme")).payment_requests).toHaveLength(2);
      expect((await requestsOf(as, "?external_customer_id=nobody")).payment_requests).toEqual([]);
      expect((await requestsOf(as, "?payment_status=pending")).payment_requests).toHaveLength(2);
      expect((await requestsOf(as, "?payment_status=succeeded")).payment_requests).toEqual([]);
      expect(await as("GET", "/payment_requests?payment_status=paid")).toMatchObject({
        status: 422,
        body: { error_details: { payment_status: ["value_is_invalid"] } },
      });
      await waitFor(() => created.received.length === 2, { what: "the second payment_request.created" });
    } finally {
      created.stop();
      await nc.close();
    }

    // paid in full: no longer asked for
    await ok(
      as("POST", "/payments", { payment: { invoice_id: february!.svc_id, amount_cents: 600, reference: "wire 2" } }),
    );
    expect(await ask(as, { svc_invoice_ids: [february!.svc_id] })).toMatchObject({
      status: 422,
      body: { error_details: { svc_invoice_ids: ["invoices_not_ready_for_payment_processing"] } },
    });
    // what the request reads is the invoice as it is now
    const [latest] = (await requestsOf(as)).payment_requests as Json[];
    expect(latest!.invoices[1]).toMatchObject({
      svc_id: february!.svc_id,
      payment_status: "succeeded",
      payment_overdue: false,
    });

    // unknown customer, unknown invoice, bad input (every problem at once)
    expect(await ask(as, { external_customer_id: "nobody", svc_invoice_ids: [march!.svc_id] })).toMatchObject({
      status: 404,
      body: { code: "customer_not_found" },
    });
    expect(await ask(as, { svc_invoice_ids: [march!.svc_id, NONE] })).toMatchObject({
      status: 422,
      body: { error_details: { svc_invoice_ids: ["invoice_not_found"] } },
    });
    expect(
      await as("POST", "/payment_requests", { payment_request: { email: "not-an-email", svc_invoice_ids: [] } }),
    ).toMatchObject({
      status: 422,
      body: {
        error_details: {
          external_customer_id: ["value_is_mandatory"],
          email: ["invalid_email_format"],
          svc_invoice_ids: expect.any(Array),
        },
      },
    });
    expect((await as("POST", "/payment_requests", { email: "x@y.test" })).status).toBe(400);
    expect(await as("GET", `/payment_requests/${NONE}`)).toMatchObject({
      status: 404,
      body: { code: "payment_request_not_found" },
    });

    // another organization (with its own acme) reaches none of it
    const other = await platform.story("Requests, elsewhere", "2024-03-07T00:30:00Z");
    expect(await other("GET", `/payment_requests/${latest!.svc_id}`)).toMatchObject({
      status: 404,
      body: { code: "payment_request_not_found" },
    });
    expect((await requestsOf(other)).payment_requests).toEqual([]);
    expect((await requestsOf(other, "?external_customer_id=acme")).payment_requests).toEqual([]);
    expect(await ask(other, { svc_invoice_ids: [march!.svc_id] })).toMatchObject({
      status: 422,
      body: { error_details: { svc_invoice_ids: ["invoice_not_found"] } },
    });
  });

  it("charges a sandbox customer's overdue invoices through the provider, and the request succeeds", async () => {
    const as = await platform.story("Requests, sandbox", "2024-01-01T00:00:00Z", {
      net_payment_term: 5,
      billing_configuration: { payment_provider: "sandbox", provider_customer_id: CARDS.fails },
    });
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    const [february] = await invoicesUntil(as, "2024-02-01T00:30:00Z");
    await waitFor(async () => (await invoice(as, february!.svc_id)).payment_status === "failed", {
      what: "the declined payment",
    });
    await advanceClock(as, "2024-02-07T00:30:00Z");

    // the customer gives a card that works; the request charges the invoice again
    await ok(
      as("POST", "/customers", {
        customer: {
          external_id: "acme",
          billing_configuration: { payment_provider: "sandbox", provider_customer_id: CARDS.succeeds },
        },
      }),
    );
    const request = (await ok(ask(as, { svc_invoice_ids: [february!.svc_id] }))).payment_request as Json;
    expect(request).toMatchObject({ amount_cents: 1_000, payment_status: "succeeded" });
    expect(request.invoices).toMatchObject([
      { svc_id: february!.svc_id, payment_status: "succeeded", total_due_amount_cents: 0 },
    ]);
    expect(
      (await ok(as("GET", `/payments?invoice_id=${february!.svc_id}`))).payments
        .map((p: Json) => p.payment_status)
        .sort(),
    ).toEqual(["failed", "succeeded"]);
    expect((await requestsOf(as, "?payment_status=succeeded")).payment_requests.map((r: Json) => r.svc_id)).toEqual([
      request.svc_id,
    ]);
  });
});
