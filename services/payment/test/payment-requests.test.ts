import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, type Bus, type Envelope } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { Rpc, type CustomerMessages, type InvoicingMessages } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { replyCodec } from "@billing/grpc";
import { silentLogger } from "@billing/logger";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, waitFor, dropTestDatabase } from "@billing/testkit";
import type { Customers } from "../src/peers/customers";
import type { InvoiceRef, Invoicing } from "../src/peers/invoicing";
import { SANDBOX_CUSTOMERS } from "../src/peers/sandbox-provider";
import type { PaymentRequestDeps } from "../src/use-cases/deps";
import { createPaymentRequest } from "../src/use-cases/payment-requests/create-payment-request";
import { getPaymentRequest } from "../src/use-cases/payment-requests/get-payment-request";
import { listPaymentRequests } from "../src/use-cases/payment-requests/list-payment-requests";
import { startPaymentRelay, wirePayment, wirePaymentRequests, type PaymentWiring } from "../src/wiring";

/**
 * Payment requests on the real MongoDB and NATS test servers, from two replicas (each its own
 * connection): a request is stored in one insert with its event, which reaches the stream however
 * the first publish went; invoices that do not qualify store nothing; an organization sees only
 * its own requests; a sandbox customer's invoices are charged once however many requests race.
 * The customer and invoicing services are stand-ins (the e2e suite has the real ones).
 */
const dbName = uniqueName("payment_requests");
const clock = new ManualClock(new Date("2024-03-01T00:00:00Z"));

// --- the invoicing stand-in: invoices by organization, overdue as invoicing would tell it
interface StoredInvoice {
  org: string;
  ref: InvoiceRef;
  overdue: boolean;
}
const invoices = new Map<string, StoredInvoice>();
const charged: string[] = [];
// what the invoicing service answers of it: a whole message, as a client of GetInvoice receives it
const invoiceReply = replyCodec(Rpc.invoicing, "GetInvoice");
const messageOf = (i: StoredInvoice): InvoicingMessages.Invoice__Output =>
  invoiceReply.decode(
    invoiceReply.encode({
      invoice: {
        svc_id: i.ref.id,
        number: i.ref.number,
        payment_status: i.ref.payment_status,
        payment_overdue: i.overdue,
      },
    }),
  ).invoice!;
const invoicing: Invoicing = {
  find: async (org, id) => (invoices.get(id)?.org === org ? invoices.get(id)!.ref : null),
  document: async (org, id) => {
    const i = invoices.get(id);
    return i?.org === org ? { invoice: i.ref, payment_overdue: i.overdue, message: messageOf(i) } : null;
  },
  applyPayment: async (_org, p) => {
    charged.push(`${p.invoice_id}|${p.payment_id}|${p.outcome}`);
    const i = invoices.get(p.invoice_id)!;
    if (p.outcome === "succeeded")
      invoices.set(p.invoice_id, {
        ...i,
        overdue: false,
        ref: { ...i.ref, payment_status: "succeeded", total_due_amount_cents: 0 },
      });
    if (p.outcome === "failed") invoices.set(p.invoice_id, { ...i, ref: { ...i.ref, payment_status: "failed" } });
    return invoices.get(p.invoice_id)!.ref;
  },
};

// --- the customer stand-in: live customers by organization and external id
const customers = new Map<string, CustomerMessages.Customer__Output>();
const customerKey = (org: string, externalId: string) => `${org}|${externalId}`;
const customerPeer: Customers = {
  find: async (org, externalId) => customers.get(customerKey(org, externalId)) ?? null,
  billing: async (org, externalId) => {
    const b = customers.get(customerKey(org, externalId))?.billing_configuration;
    return b
      ? {
          payment_provider: b.payment_provider ?? null,
          payment_provider_code: b.payment_provider_code ?? null,
          provider_customer_id: b.provider_customer_id ?? null,
        }
      : null;
  },
};

const customerReply = replyCodec(Rpc.customer, "GetCustomer");

function newCustomer(org: string, externalId: string, card?: string): CustomerMessages.Customer__Output {
  // a whole message, as a client of GetCustomer receives it
  const customer = customerReply.decode(
    customerReply.encode({
      customer: {
        svc_id: randomUUID(),
        external_id: externalId,
        name: externalId,
        currency: "EUR",
        applicable_timezone: "UTC",
        billing_configuration: card
          ? { payment_provider: "sandbox", payment_provider_code: "sandbox", provider_customer_id: card }
          : null,
      },
    }),
  ).customer!;
  customers.set(customerKey(org, externalId), customer);
  return customer;
}

function newInvoice(
  org: string,
  customer: CustomerMessages.Customer__Output,
  fields: Partial<InvoiceRef> & { overdue?: boolean } = {},
): string {
  const { overdue = true, ...ref } = fields;
  const id = randomUUID();
  invoices.set(id, {
    org,
    overdue,
    ref: {
      id,
      number: `INV-${invoices.size + 1}`,
      status: "finalized",
      payment_status: "pending",
      currency: "EUR",
      total_amount_cents: 1_000,
      total_due_amount_cents: 1_000,
      customer_id: customer.svc_id,
      external_customer_id: customer.external_id,
      overpayments: [],
      ...ref,
    },
  });
  return id;
}

const connections: Connection[] = [];
let bus: Bus;
let replicas: Array<PaymentWiring & { requests: PaymentRequestDeps }>;
const received: Envelope[] = [];
const eventsOf = (requestId: string) =>
  received.filter((e) => (e.data as { payment_request: { svc_id: string } }).payment_request.svc_id === requestId);

beforeAll(async () => {
  bus = await connectBus({ url: infraUrls().natsUrl, name: "payment-requests-test" });
  for (let i = 0; i < 2; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  replicas = connections.map((c) => {
    const payment = wirePayment(c, {
      clock,
      customers: customerPeer,
      invoicing,
      publicUrl: "http://127.0.0.1:3000",
      returnUrl: "http://127.0.0.1:3000/done",
    });
    return { ...payment, requests: wirePaymentRequests(c, payment.deps, { bus, logger: silentLogger }).deps };
  });
  await initModels(connections[0]!);
  // the stream exists (as the service makes sure at start), and this file's events are collected
  (await startPaymentRelay(bus, [], { replicas: 1, logger: silentLogger })).stop();
  const sub = bus.nc.subscribe("billing.payment.payment_request.>");
  void (async () => {
    for await (const m of sub) received.push(m.json<Envelope>());
  })();
});

afterAll(async () => {
  await dropTestDatabase(connections[0]);
  await Promise.all(connections.map((c) => c.close()));
  await bus?.close();
});

const requestsCollection = () => connections[0]!.collection("payment_requests");
const refusal = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error("accepted");
    },
    (err: unknown) => {
      if (!(err instanceof AppError)) throw err;
      return { kind: err.kind, code: err.code, details: err.details };
    },
  );

describe("creating a payment request", () => {
  it("gathers a customer's overdue invoices for what is still due, stored once with its event on the stream", async () => {
    const org = randomUUID();
    const acme = newCustomer(org, "acme");
    const first = newInvoice(org, acme, { total_due_amount_cents: 400 });
    const second = newInvoice(org, acme, { total_amount_cents: 2_500, total_due_amount_cents: 2_500 });
    const {
      request,
      customer,
      invoices: shown,
    } = await createPaymentRequest(replicas[0]!.requests, org, {
      external_customer_id: "acme",
      email: "billing@acme.test",
      invoice_ids: [second, first, second],
    });
    expect(request).toMatchObject({
      organization_id: org,
      customer_id: acme.svc_id,
      external_customer_id: "acme",
      email: "billing@acme.test",
      invoice_ids: [second, first],
      amount_cents: 2_900,
      currency: "EUR",
      payment_status: "pending",
    });
    expect(customer.svc_id).toBe(acme.svc_id);
    expect(shown.map((i) => i.svc_id)).toEqual([second, first]);

    await waitFor(() => eventsOf(request.id).length === 1, { what: "payment_request.created on the stream" });
    expect(eventsOf(request.id)[0]).toMatchObject({
      type: "billing.payment.payment_request.created",
      organization_id: org,
      data: {
        payment_request: {
          svc_id: request.id,
          svc_customer_id: acme.svc_id,
          svc_invoice_ids: [second, first],
          amount_cents: 2_900,
          payment_status: "pending",
        },
      },
    });
    const doc = await requestsCollection().findOne({ _id: request.id as never });
    expect(doc?.outbox).toEqual([]);
    // read back from the other replica, as it was answered
    expect(await getPaymentRequest(replicas[1]!.requests, org, request.id)).toEqual({
      request,
      customer,
      invoices: shown,
    });
  });

  it("refuses, storing nothing, an unknown customer (404) and invoices that do not qualify (422)", async () => {
    const org = randomUUID();
    const acme = newCustomer(org, "acme");
    const other = newCustomer(org, "other");
    const overdue = newInvoice(org, acme);
    const ask = (invoiceIds: string[], externalId = "acme", email = "a@acme.test") =>
      refusal(
        createPaymentRequest(replicas[0]!.requests, org, {
          external_customer_id: externalId,
          email,
          invoice_ids: invoiceIds,
        }),
      );

    expect(await ask([overdue], "nobody")).toMatchObject({ kind: "not_found", code: "customer_not_found" });
    expect(await ask([overdue, newInvoice(org, acme, { overdue: false })])).toMatchObject({
      kind: "unprocessable",
      details: { svc_invoice_ids: ["invoices_not_overdue"] },
    });
    expect(
      await ask([newInvoice(org, acme, { payment_status: "succeeded", total_due_amount_cents: 0, overdue: false })]),
    ).toMatchObject({ details: { svc_invoice_ids: ["invoices_not_ready_for_payment_processing"] } });
    expect(await ask([newInvoice(org, acme, { status: "draft", overdue: false })])).toMatchObject({
      details: { svc_invoice_ids: ["invoices_not_ready_for_payment_processing"] },
    });
    expect(await ask([overdue, newInvoice(org, other)])).toMatchObject({
      details: { svc_invoice_ids: ["invoice_not_found"] },
    });
    expect(await ask([overdue, randomUUID()])).toMatchObject({ details: { svc_invoice_ids: ["invoice_not_found"] } });
    expect(await ask([overdue, newInvoice(randomUUID(), acme)])).toMatchObject({
      details: { svc_invoice_ids: ["invoice_not_found"] },
    });
    expect(await ask([overdue, newInvoice(org, acme, { currency: "USD" })])).toMatchObject({
      details: { base: ["invoices_have_different_currencies"] },
    });
    expect(await ask([], "", "not-an-email")).toMatchObject({
      kind: "unprocessable",
      code: "validation_errors",
      details: {
        external_customer_id: ["value_is_mandatory"],
        email: ["invalid_email_format"],
        svc_invoice_ids: ["value_is_mandatory"],
      },
    });
    expect(await requestsCollection().countDocuments({ organization_id: org })).toBe(0);
  });
});

describe("reading payment requests", () => {
  it("lists an organization's requests newest first, by customer and payment status, and never another's", async () => {
    const org = randomUUID();
    const elsewhere = randomUUID();
    const acme = newCustomer(org, "acme");
    const beta = newCustomer(org, "beta");
    newCustomer(elsewhere, "acme");
    const deps = replicas[0]!.requests;
    const ids: string[] = [];
    for (const [customer, externalId] of [
      [acme, "acme"],
      [beta, "beta"],
      [acme, "acme"],
    ] as const) {
      clock.advance(60_000);
      ids.push(
        (
          await createPaymentRequest(deps, org, {
            external_customer_id: externalId,
            email: "x@y.test",
            invoice_ids: [newInvoice(org, customer)],
          })
        ).request.id,
      );
    }
    const page = { page: 1, perPage: 2 };
    const all = await listPaymentRequests(deps, org, {}, page);
    expect(all.total).toBe(3);
    expect(all.items.map((v) => v.request.id)).toEqual([ids[2], ids[1]]);
    expect((await listPaymentRequests(deps, org, {}, { page: 2, perPage: 2 })).items.map((v) => v.request.id)).toEqual([
      ids[0],
    ]);
    expect(
      (await listPaymentRequests(deps, org, { externalCustomerId: "acme" }, { page: 1, perPage: 10 })).items.map(
        (v) => v.request.id,
      ),
    ).toEqual([ids[2], ids[0]]);
    expect((await listPaymentRequests(deps, org, { paymentStatus: "pending" }, { page: 1, perPage: 10 })).total).toBe(
      3,
    );
    expect((await listPaymentRequests(deps, org, { paymentStatus: "succeeded" }, { page: 1, perPage: 10 })).total).toBe(
      0,
    );

    expect((await listPaymentRequests(deps, elsewhere, {}, page)).total).toBe(0);
    expect(await refusal(getPaymentRequest(deps, elsewhere, ids[0]!))).toMatchObject({
      kind: "not_found",
      code: "payment_request_not_found",
    });
    expect(await refusal(getPaymentRequest(deps, org, randomUUID()))).toMatchObject({
      code: "payment_request_not_found",
    });
  });

  it("shows a customer deleted since, and an invoice gone, as they were when the request was made", async () => {
    const org = randomUUID();
    const acme = newCustomer(org, "acme");
    const deps = replicas[0]!.requests;
    const invoiceId = newInvoice(org, acme);
    const before = messageOf(invoices.get(invoiceId)!);
    const { request } = await createPaymentRequest(deps, org, {
      external_customer_id: "acme",
      email: "x@y.test",
      invoice_ids: [invoiceId],
    });
    customers.delete(customerKey(org, "acme"));
    newCustomer(org, "acme"); // the external id taken again by a new customer
    invoices.delete(invoiceId);
    const shown = await getPaymentRequest(deps, org, request.id);
    expect(shown.customer).toEqual(acme);
    expect(shown.invoices).toEqual([before]);
  });

  it("reads a request stored before its snapshot was typed (the replies as JSON text)", async () => {
    const org = randomUUID();
    const acme = newCustomer(org, "acme");
    const invoiceId = newInvoice(org, acme);
    const invoice = messageOf(invoices.get(invoiceId)!);
    const id = randomUUID();
    const at = new Date("2024-02-01T00:00:00Z");
    await requestsCollection().insertOne({
      _id: id as never, // the raw driver's default _id type is an ObjectId; ours are strings
      organization_id: org,
      customer_id: acme.svc_id,
      external_customer_id: "acme",
      email: "x@y.test",
      invoice_ids: [invoiceId],
      amount_cents: 1_000,
      currency: "EUR",
      payment_status: "pending",
      created_at: at,
      updated_at: at,
      outbox: [],
      snapshot: { customer_json: JSON.stringify({ customer: acme }), invoices_json: [JSON.stringify({ invoice })] },
    });
    const shown = await getPaymentRequest(replicas[0]!.requests, org, id);
    expect(shown.customer).toEqual(acme);
    expect(shown.invoices).toEqual([invoice]);
  });
});

describe("events and charges", () => {
  it("publishes a created event the first publish lost, from the request's outbox", async () => {
    const org = randomUUID();
    const acme = newCustomer(org, "acme");
    // NATS "down" at the moment of the write: the event stays in the request's document
    const deps: PaymentRequestDeps = { ...replicas[0]!.requests, publishRequest: async () => undefined };
    const { request } = await createPaymentRequest(deps, org, {
      external_customer_id: "acme",
      email: "x@y.test",
      invoice_ids: [newInvoice(org, acme)],
    });
    expect((await requestsCollection().findOne({ _id: request.id as never }))?.outbox).toHaveLength(1);

    const relay = await startPaymentRelay(bus, [replicas[1]!.requests.paymentRequests.outbox()], {
      replicas: 1,
      logger: silentLogger,
    });
    try {
      await waitFor(() => eventsOf(request.id).length === 1, { what: "the relayed event" });
    } finally {
      relay.stop();
    }
    expect(eventsOf(request.id)[0]).toMatchObject({
      type: "billing.payment.payment_request.created",
      data: { payment_request: { svc_id: request.id } },
    });
    await waitFor(
      async () => ((await requestsCollection().findOne({ _id: request.id as never }))?.outbox ?? []).length === 0,
      { what: "the outbox cleared" },
    );
  });

  it("charges a sandbox customer's invoices once however many requests race, and the requests succeed", async () => {
    const org = randomUUID();
    const acme = newCustomer(org, "acme", SANDBOX_CUSTOMERS.SUCCEEDS);
    const first = newInvoice(org, acme);
    const second = newInvoice(org, acme, { total_due_amount_cents: 300 });
    const results = await Promise.allSettled(
      replicas.flatMap((r) =>
        [1, 2].map(() =>
          createPaymentRequest(r.requests, org, {
            external_customer_id: "acme",
            email: "x@y.test",
            invoice_ids: [first, second],
          }),
        ),
      ),
    );
    // every request was made for 1,300 cents; those that found the invoices paid already were refused
    const made = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ kind: "unprocessable" });
    for (const view of made) {
      expect(view.request).toMatchObject({ amount_cents: 1_300, payment_status: "succeeded" });
      expect(view.invoices.map((i) => i.payment_status)).toEqual(["succeeded", "succeeded"]);
    }
    // one provider attempt per invoice, told to invoicing once
    for (const invoice of [first, second]) {
      expect(await replicas[0]!.models.payments.countDocuments({ invoice_id: invoice })).toBe(1);
      expect(new Set(charged.filter((c) => c.startsWith(invoice)))).toHaveProperty("size", 1);
    }
    const [one] = made;
    await waitFor(() => eventsOf(one!.request.id).length === 2, { what: "created and payment_status_updated" });
    expect(
      eventsOf(one!.request.id).map((e) => [
        e.type,
        (e.data as { payment_request: { payment_status: string } }).payment_request.payment_status,
      ]),
    ).toEqual([
      ["billing.payment.payment_request.created", "pending"],
      ["billing.payment.payment_request.payment_status_updated", "succeeded"],
    ]);
    expect((await getPaymentRequest(replicas[1]!.requests, org, one!.request.id)).request.payment_status).toBe(
      "succeeded",
    );
  });

  it("fails a sandbox customer's request whose charge is declined", async () => {
    const org = randomUUID();
    const acme = newCustomer(org, "acme", SANDBOX_CUSTOMERS.FAILS);
    const invoice = newInvoice(org, acme);
    const { request } = await createPaymentRequest(replicas[0]!.requests, org, {
      external_customer_id: "acme",
      email: "x@y.test",
      invoice_ids: [invoice],
    });
    expect(request.payment_status).toBe("failed");
    expect(
      (
        await listPaymentRequests(replicas[1]!.requests, org, { paymentStatus: "failed" }, { page: 1, perPage: 10 })
      ).items.map((v) => v.request.id),
    ).toEqual([request.id]);
  });
});
