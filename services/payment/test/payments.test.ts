import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@billing/clock";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import type { Customers } from "../src/peers/customers";
import type { InvoiceRef, Invoicing } from "../src/peers/invoicing";
import { SANDBOX_CUSTOMERS } from "../src/peers/sandbox-provider";
import { chargeInvoice } from "../src/use-cases/payments/charge-invoice";
import { confirmSandboxPayment } from "../src/use-cases/payments/confirm-sandbox-payment";
import { finishInterrupted } from "../src/use-cases/payments/finish-interrupted";
import { retryInvoicePayment } from "../src/use-cases/payments/retry-invoice-payment";
import { wirePayment, type PaymentWiring } from "../src/wiring";

/**
 * The payment service on the real MongoDB test server, from two replicas (each its own
 * connection): a provider attempt is stored once, charged once per idempotency key, and its
 * outcome reaches the invoice once, whatever the crash, redelivery or concurrent retry. The
 * invoicing service is the e2e suite's; here it is a ledger of the outcomes it was told.
 */
const dbName = uniqueName("payments");
const clock = new ManualClock(new Date("2024-02-01T00:00:00Z"));
const org = randomUUID();
const invoices = new Map<string, InvoiceRef>();
const told: string[] = [];
const invoicing: Invoicing = {
  find: async (_org, id) => invoices.get(id) ?? null,
  document: async () => null, // payment requests only, which this file does not make
  applyPayment: async (_org, p) => {
    told.push(`${p.invoice_id}|${p.payment_id}|${p.outcome}`);
    const invoice = invoices.get(p.invoice_id)!;
    // a provider's success beyond what is due: the rest is the payment's overpayment (as invoicing records it)
    const over =
      p.outcome === "succeeded" && p.allow_overpayment
        ? Math.max(0, p.amount_cents - invoice.total_due_amount_cents)
        : 0;
    const overpayments =
      over > 0 && !invoice.overpayments.some((o) => o.payment_id === p.payment_id)
        ? [...invoice.overpayments, { payment_id: p.payment_id, amount_cents: over }]
        : invoice.overpayments;
    if (p.outcome === "succeeded")
      invoices.set(p.invoice_id, { ...invoice, payment_status: "succeeded", total_due_amount_cents: 0, overpayments });
    if (p.outcome === "failed") invoices.set(p.invoice_id, { ...invoice, payment_status: "failed" });
    return invoices.get(p.invoice_id)!;
  },
};
let card = SANDBOX_CUSTOMERS.SUCCEEDS;
const customers: Customers = {
  billing: async () => ({ payment_provider: "sandbox", payment_provider_code: "sandbox", provider_customer_id: card }),
  find: async () => null, // payment requests only, which this file does not make
};
const connections: Connection[] = [];
let replicas: PaymentWiring[];

const newInvoice = (): InvoiceRef => {
  const invoice = {
    id: randomUUID(),
    number: "INV-1",
    status: "finalized",
    payment_status: "pending",
    currency: "EUR",
    total_amount_cents: 1_000,
    total_due_amount_cents: 1_000,
    customer_id: "cus-1",
    external_customer_id: "acme",
    overpayments: [],
  };
  invoices.set(invoice.id, invoice);
  return invoice;
};
const toldFor = (invoiceId: string) => told.filter((t) => t.startsWith(invoiceId));

beforeAll(async () => {
  for (let i = 0; i < 2; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  replicas = connections.map((c) =>
    wirePayment(c, {
      clock,
      customers,
      invoicing,
      publicUrl: "http://127.0.0.1:3000",
      returnUrl: "http://127.0.0.1:3000/done",
    }),
  );
  await initModels(connections[0]!);
});

afterAll(async () => {
  await dropTestDatabase(connections[0]);
  await Promise.all(connections.map((c) => c.close()));
});

describe("provider payments", () => {
  it("charges an invoice once however often its finalization is delivered, on both replicas at once", async () => {
    const invoice = newInvoice();
    const attempts = await Promise.all(
      replicas.flatMap((r) => [1, 2, 3].map(() => chargeInvoice(r.deps, invoice, org, 1))),
    );
    expect(new Set(attempts.map((p) => p!.id)).size).toBe(1);
    expect(attempts.every((p) => p!.payment_status === "succeeded" && p!.amount_cents === 1_000)).toBe(true);
    expect(await replicas[0]!.models.sandboxCharges.countDocuments({ _id: attempts[0]!.id })).toBe(1);
    expect(new Set(toldFor(invoice.id))).toEqual(new Set([`${invoice.id}|${attempts[0]!.id}|succeeded`]));
    expect(await replicas[0]!.models.payments.countDocuments({ invoice_id: invoice.id })).toBe(1);
  });

  it("finishes an attempt a crash left between the charge and its record: charged once, applied once", async () => {
    const invoice = newInvoice();
    const { deps, models } = replicas[0]!;
    // a replica stored the attempt and charged it, then died before writing the outcome
    await deps.payments.insert({
      id: "attempt-crashed",
      organization_id: org,
      customer_id: "cus-1",
      external_customer_id: "acme",
      invoice_id: invoice.id,
      invoice_number: "INV-1",
      amount_cents: 1_000,
      currency: "EUR",
      type: "provider",
      status: "pending",
      payment_status: "pending",
      reference: null,
      provider: { code: "sandbox", type: "sandbox", customer_id: card },
      provider_payment_id: null,
      next_action: {},
      attempt: 1,
      applied: false,
      paid_at: null,
      created_at: clock.now(),
      updated_at: clock.now(),
    });
    const charged = await deps.providers.get("sandbox")!.charge({
      idempotencyKey: "attempt-crashed",
      amountCents: 1_000,
      currency: "EUR",
      providerCustomerId: card,
      returnUrl: "x",
    });
    await models.payments.updateOne({ _id: "attempt-crashed" }, { $set: { sweep_at: new Date(0) } });
    // the other replica's sweeper finishes it (and a second sweep finds nothing)
    expect(await finishInterrupted(replicas[1]!.deps)).toBeGreaterThanOrEqual(1);
    expect(await finishInterrupted(replicas[1]!.deps)).toBe(0);
    const done = (await deps.payments.findById("attempt-crashed"))!;
    expect(done).toMatchObject({
      payment_status: "succeeded",
      applied: true,
      provider_payment_id: charged.providerPaymentId,
    });
    expect(await models.sandboxCharges.countDocuments({ _id: "attempt-crashed" })).toBe(1);
    expect(toldFor(invoice.id)).toEqual([`${invoice.id}|attempt-crashed|succeeded`]);
  });

  it("retries a declined payment once however many retries race, and not while paid", async () => {
    card = SANDBOX_CUSTOMERS.FAILS;
    const invoice = newInvoice();
    const first = await chargeInvoice(replicas[0]!.deps, invoice, org, 1);
    expect(first).toMatchObject({ payment_status: "failed", status: "card_declined" });
    card = SANDBOX_CUSTOMERS.SUCCEEDS;
    const retries = await Promise.allSettled(
      replicas.flatMap((r) => [1, 2].map(() => retryInvoicePayment(r.deps, org, invoice.id))),
    );
    const ids = new Set(retries.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : [])));
    expect(ids.size).toBe(1);
    expect(await replicas[0]!.models.payments.countDocuments({ invoice_id: invoice.id })).toBe(2);
    // racing replicas may each tell invoicing the one outcome: invoicing applies a (payment, outcome) once
    expect(new Set(toldFor(invoice.id).filter((t) => t.endsWith("succeeded")))).toEqual(
      new Set([`${invoice.id}|${[...ids][0]}|succeeded`]),
    );
    await expect(retryInvoicePayment(replicas[0]!.deps, org, invoice.id)).rejects.toMatchObject({
      kind: "not_allowed",
    });
  });

  it("frees an invoice's claim whose holder died before storing itself, and keeps one a payment waiting for its customer holds", async () => {
    const { deps } = replicas[0]!;
    // a replica claimed an invoice for its attempt, then died before storing the attempt
    const orphaned = newInvoice();
    expect(await deps.claims.take(orphaned.id, org, { id: "never-stored", kind: "provider" })).toBeNull();
    // another invoice's attempt waits for its customer (requires action)
    card = SANDBOX_CUSTOMERS.REQUIRES_ACTION;
    const waiting = newInvoice();
    const attempt = await chargeInvoice(deps, waiting, org, 1);
    expect(attempt).toMatchObject({ payment_status: "processing" });
    card = SANDBOX_CUSTOMERS.SUCCEEDS;
    expect(await deps.claims.take(waiting.id, org, { id: "a-manual-payment", kind: "manual" })).toEqual({
      id: attempt!.id,
      kind: "provider",
    });

    await finishInterrupted(replicas[1]!.deps, 200, 0);
    expect(await deps.claims.holderOf(orphaned.id)).toBeNull();
    expect(await deps.claims.holderOf(waiting.id)).toEqual({ id: attempt!.id, kind: "provider" });
    // the orphaned invoice is charged by its next delivery, once
    expect(await chargeInvoice(replicas[1]!.deps, orphaned, org, 1)).toMatchObject({ payment_status: "succeeded" });
    expect(await deps.claims.holderOf(orphaned.id)).toBeNull();
  });

  it("records a provider success beyond what is due once, with its event, and gives it back as the organization chose", async () => {
    const { deps, models } = replicas[0]!;
    const overpaidAfterConfirm = async (organization: string) => {
      card = SANDBOX_CUSTOMERS.REQUIRES_ACTION;
      const invoice = newInvoice();
      const attempt = (await chargeInvoice(deps, invoice, organization, 1))!;
      card = SANDBOX_CUSTOMERS.SUCCEEDS;
      // while the customer confirms, 400 of the 1,000 are credited: 600 are due
      invoices.set(invoice.id, { ...invoices.get(invoice.id)!, total_due_amount_cents: 600 });
      await Promise.all([
        confirmSandboxPayment(deps, organization, attempt.id),
        confirmSandboxPayment(replicas[1]!.deps, organization, attempt.id),
      ]);
      return (await deps.payments.findById(attempt.id))!;
    };
    const refunded = await overpaidAfterConfirm(org);
    // refunded through the provider by default (the refunds' side is not wired here: it stays pending for the refund sweeper)
    expect(refunded).toMatchObject({
      payment_status: "succeeded",
      amount_cents: 1_000,
      overpaid_amount_cents: 400,
      overpayment_status: "refund_pending",
      applied: true,
    });
    const doc = await models.payments.findById(refunded.id).lean<{ outbox?: { type: string }[] }>();
    expect((doc?.outbox ?? []).filter((e) => e.type === "billing.payment.payment.overpaid")).toHaveLength(1);
    expect(await deps.claims.holderOf(refunded.invoice_id)).toBeNull();

    // an organization that gives overpayments back itself: recorded, left to it
    const manualOrg = randomUUID();
    await deps.settings.setOverpaymentHandling(manualOrg, "manual", new Date());
    expect(await overpaidAfterConfirm(manualOrg)).toMatchObject({
      overpaid_amount_cents: 400,
      overpayment_status: "to_give_back",
    });
  });
});
