import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import { customer, ok, plan, subscribe, type Api, type Json } from "../../support/scenario";
import { WebhookReceiver } from "../../support/webhook-receiver";

// Webhooks on sandbox organizations (the payments and webhooks issue): endpoints per
// organization, every delivery signed (hmac, jwt, Standard Webhooks) and verified by a real
// receiver with public tools, objects exactly as the API returns them, refused attempts retried
// under the same unique key, and the delivery log. Retries are shortened a thousandfold here.
const platform = scenarioPlatform("scn_webhooks", { WEBHOOK_RETRY_SCALE: "0.001" });
const receiver = new WebhookReceiver();
const REQUIRES_ACTION = "4000002500003155";

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const typesAt = (path: string) => receiver.at(path).map((d) => d.payload.webhook_type as string);
const firstOf = (path: string, type: string) => receiver.at(path).find((d) => d.payload.webhook_type === type);
const arrived = (path: string, type: string, what = `${type} at ${path}`) =>
  waitFor(() => firstOf(path, type), { what, timeoutMs: 30_000 });

async function endpoint(as: Api, path: string, fields: Json = {}): Promise<Json> {
  const body = await ok(
    as("POST", "/webhook_endpoints", { webhook_endpoint: { webhook_url: `${receiver.url}${path}`, ...fields } }),
  );
  return body.webhook_endpoint as Json;
}

async function trustKeys(as: Api): Promise<void> {
  receiver.keys.hmacKey = (await ok(as("GET", "/webhooks/hmac_key"))).webhook.hmac_key as string;
  receiver.keys.publicKeyPem = Buffer.from(
    (await ok(as("GET", "/webhooks/json_public_key"))).webhook.public_key as string,
    "base64",
  ).toString("utf8");
}

describe("webhooks", () => {
  it("tells a customer's backend about its customer, subscription, invoice and a payment that needs action, signed three ways", async () => {
    const { as, organization_id } = await platform.sandbox("Webhooks", "2024-01-01T00:00:00Z");
    await trustKeys(as);
    const all = await endpoint(as, "/all", { name: "everything" });
    expect(all).toMatchObject({
      webhook_url: `${receiver.url}/all`,
      signature_algo: "hmac",
      event_types: null,
      name: "everything",
      svc_organization_id: organization_id,
    });
    await endpoint(as, "/payments", {
      signature_algo: "jwt",
      event_types: ["payment.requires_action", "payment.succeeded"],
    });
    const standard = await endpoint(as, "/standard", { signature_algo: "standard", event_types: ["customer.created"] });
    expect(standard.signing_secret).toMatch(/^whsec_/);
    receiver.keys.standardSecrets.set("/standard", standard.signing_secret as string);
    // the first three attempts at /all are refused: retried, same key
    receiver.failFirst.set("/all", 3);

    await customer(as, "acme", {
      billing_configuration: { payment_provider: "sandbox", provider_customer_id: REQUIRES_ACTION },
    });
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");

    const action = await arrived("/payments", "payment.requires_action");
    expect(action.verifiedBy).toBe("jwt");
    const payment = action.payload.payment as Json;
    expect(action.payload).toMatchObject({
      webhook_type: "payment.requires_action",
      object_type: "payment",
      organization_id,
    });
    expect(payment).toMatchObject({
      payment_status: "processing",
      amount_cents: 1_000,
      next_action: { type: "redirect_to_url" },
    });
    await ok(as("POST", `/sandbox/payments/${payment.svc_id}/confirm`));
    const succeeded = await arrived("/payments", "payment.succeeded");
    // the object exactly as GET /payments/{id} answers it
    expect(succeeded.payload.payment).toEqual((await ok(as("GET", `/payments/${payment.svc_id}`))).payment);
    expect(typesAt("/payments").sort()).toEqual(["payment.requires_action", "payment.succeeded"]);

    const created = await arrived("/standard", "customer.created");
    expect(created.verifiedBy).toBe("standard");
    const acme = (await ok(as("GET", "/customers/acme"))).customer as Json;
    expect(created.payload).toEqual({
      webhook_type: "customer.created",
      object_type: "customer",
      organization_id,
      customer: acme,
    });
    expect(typesAt("/standard")).toEqual(["customer.created"]);

    await arrived("/all", "invoice.payment_status_updated");
    for (const type of ["customer.created", "plan.created", "subscription.started", "invoice.created"])
      await arrived("/all", type);
    expect(receiver.at("/all").every((d) => d.verifiedBy === "hmac")).toBe(true);
    expect(firstOf("/all", "customer.created")!.payload.customer).toEqual(acme);
    expect(firstOf("/all", "plan.created")!.payload.plan).toEqual((await ok(as("GET", "/plans/basic"))).plan);
    const invoiceCreated = firstOf("/all", "invoice.created")!.payload.invoice as Json;
    expect(invoiceCreated).toMatchObject({ total_amount_cents: 1_000, customer: { external_id: "acme" } });
    expect(firstOf("/all", "invoice.payment_status_updated")!.payload.invoice).toMatchObject({
      svc_id: invoiceCreated.svc_id,
      payment_status: "succeeded",
    });
    expect(receiver.refusedSignatures).toBe(0);

    // the delivery log: every one succeeded; the refused attempts show as retries
    await waitFor(
      async () =>
        (await ok(as("GET", `/webhooks?webhook_endpoint_id=${all.svc_id}&status=pending`))).meta.total_count === 0,
      { what: "the log settled" },
    );
    const log = (await ok(as("GET", `/webhooks?webhook_endpoint_id=${all.svc_id}&per_page=100`))).webhooks as Json[];
    expect(log.length).toBe(receiver.at("/all").length);
    expect(log.every((w) => w.status === "succeeded" && w.http_status === 200)).toBe(true);
    expect(log.reduce((n, w) => n + (w.retries as number) - 1, 0)).toBe(3);
    const one = log.find((w) => w.webhook_type === "customer.created")!;
    expect(one.payload).toEqual(firstOf("/all", "customer.created")!.payload);
    expect((await ok(as("GET", `/webhooks/${one.svc_id}`))).webhook).toEqual(one);

    // a replay: the same unique key again (the receiver recognizes it)
    const before = receiver.duplicates;
    expect((await ok(as("POST", `/webhooks/${one.svc_id}/retry`))).webhook).toMatchObject({ svc_id: one.svc_id });
    await waitFor(() => receiver.duplicates === before + 1, { what: "the replay" });
    await waitFor(async () => (await ok(as("GET", `/webhooks/${one.svc_id}`))).webhook.retries === one.retries + 1, {
      what: "the replay logged",
    });

    // another organization reaches none of it
    const other = (await platform.sandbox("Webhooks, elsewhere", "2024-01-01T00:00:00Z")).as;
    for (const [method, path] of [
      ["GET", `/webhook_endpoints/${all.svc_id}`],
      ["PUT", `/webhook_endpoints/${all.svc_id}`],
      ["DELETE", `/webhook_endpoints/${all.svc_id}`],
      ["GET", `/webhooks/${one.svc_id}`],
      ["POST", `/webhooks/${one.svc_id}/retry`],
    ] as const) {
      const reply = await other(
        method,
        path,
        method === "PUT" ? { webhook_endpoint: { webhook_url: "https://example.com/x" } } : undefined,
      );
      expect(reply.status, `${method} ${path}`).toBe(404);
    }
    expect((await ok(other("GET", "/webhook_endpoints"))).webhook_endpoints).toEqual([]);
    expect((await ok(other("GET", "/webhooks"))).webhooks).toEqual([]);
    expect((await ok(other("GET", "/webhooks/hmac_key"))).webhook.hmac_key).not.toBe(receiver.keys.hmacKey);
    // nor its jwt key: each organization signs with its own, and says whose a token is, until when
    expect(
      Buffer.from(
        (await ok(other("GET", "/webhooks/json_public_key"))).webhook.public_key as string,
        "base64",
      ).toString("utf8"),
    ).not.toBe(receiver.keys.publicKeyPem);
    const signed = receiver.processed.find((d) => d.verifiedBy === "jwt")!;
    const claims = jwt.decode(String(signed.headers["x-lago-signature"])) as jwt.JwtPayload;
    expect(claims).toMatchObject({
      organization_id: organization_id,
      data: signed.body,
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(claims.exp! - claims.iat!).toBe(600);
  });

  it("manages endpoints as Lago does: validation, update, list, delete", async () => {
    const { as } = await platform.sandbox("Webhook endpoints", "2024-01-01T00:00:00Z");
    const first = await endpoint(as, "/a", { event_types: ["invoice.created"] });
    expect(
      await as("POST", "/webhook_endpoints", { webhook_endpoint: { webhook_url: `${receiver.url}/a` } }),
    ).toMatchObject({
      status: 422,
      body: { code: "validation_errors", error_details: { webhook_url: ["value_already_exist"] } },
    });
    expect(
      await as("POST", "/webhook_endpoints", {
        webhook_endpoint: { webhook_url: "ftp://example.com/x", event_types: ["not.a_type"] },
      }),
    ).toMatchObject({
      status: 422,
      body: { error_details: { webhook_url: ["url_invalid"], event_types: ["value_is_invalid"] } },
    });
    expect((await as("POST", "/webhook_endpoints", { webhook_endpoint: { signature_algo: "md5" } })).status).toBe(422);
    const updated = (
      await ok(
        as("PUT", `/webhook_endpoints/${first.svc_id}`, {
          webhook_endpoint: { webhook_url: `${receiver.url}/b`, signature_algo: "jwt", event_types: null },
        }),
      )
    ).webhook_endpoint as Json;
    expect(updated).toMatchObject({
      svc_id: first.svc_id,
      webhook_url: `${receiver.url}/b`,
      signature_algo: "jwt",
      event_types: null,
      created_at: first.created_at,
    });
    await endpoint(as, "/c");
    const listed = await ok(as("GET", "/webhook_endpoints?per_page=1&page=2"));
    expect(listed.webhook_endpoints).toHaveLength(1);
    expect(listed.meta).toMatchObject({ current_page: 2, total_count: 2, total_pages: 2 });
    expect((await ok(as("DELETE", `/webhook_endpoints/${first.svc_id}`))).webhook_endpoint).toMatchObject({
      svc_id: first.svc_id,
    });
    expect(await as("GET", `/webhook_endpoints/${first.svc_id}`)).toMatchObject({
      status: 404,
      body: { code: "webhook_endpoint_not_found" },
    });
    expect((await ok(as("GET", "/webhook_endpoints"))).meta.total_count).toBe(1);
  });
});

describe("webhooks of time and of payment requests", () => {
  it("announces an invoice overdue when the test clock passes its due date, and the payment request gathering it", async () => {
    const { as, organization_id } = await platform.sandbox("Webhooks overdue", "2024-01-01T00:00:00Z");
    await trustKeys(as);
    await endpoint(as, "/dunning", { event_types: ["invoice.payment_overdue", "payment_request.created"] });
    await customer(as, "acme", { email: "billing@acme.test" });
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    await advanceClock(as, "2024-02-01T00:30:00Z");
    expect(firstOf("/dunning", "invoice.payment_overdue")).toBeUndefined();
    await advanceClock(as, "2024-02-03T00:00:00Z");
    const overdue = await arrived("/dunning", "invoice.payment_overdue");
    const invoice = overdue.payload.invoice as Json;
    expect(overdue.payload).toMatchObject({
      webhook_type: "invoice.payment_overdue",
      object_type: "invoice",
      organization_id,
    });
    expect(invoice).toEqual((await ok(as("GET", `/invoices/${invoice.svc_id}`))).invoice);
    expect(invoice).toMatchObject({ payment_overdue: true, total_amount_cents: 1_000 });

    const request = (
      await ok(
        as("POST", "/payment_requests", {
          payment_request: {
            external_customer_id: "acme",
            email: "billing@acme.test",
            svc_invoice_ids: [invoice.svc_id],
          },
        }),
      )
    ).payment_request as Json;
    const created = await arrived("/dunning", "payment_request.created");
    expect(created.payload).toEqual({
      webhook_type: "payment_request.created",
      object_type: "payment_request",
      organization_id,
      payment_request: request,
    });
    expect(typesAt("/dunning")).toEqual(["invoice.payment_overdue", "payment_request.created"]);
  });
});
