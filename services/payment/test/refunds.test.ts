import { randomUUID } from "node:crypto";
import type { Connection } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects } from "@billing/bus";
import { ManualClock } from "@billing/clock";
import { domainEvent } from "@billing/contracts";
import { connectMongo, initModels } from "@billing/mongo";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import { refundRequestedHandler } from "../src/events/refund-requested";
import type { CreditNotes } from "../src/peers/credit-notes";
import type { Customers } from "../src/peers/customers";
import type { InvoiceRef, Invoicing } from "../src/peers/invoicing";
import { REFUND_SETTLES_AFTER_MS, SANDBOX_CUSTOMERS } from "../src/peers/sandbox-provider";
import { wireRefunds, type RefundWiring } from "../src/refund-wiring";
import { chargeInvoice } from "../src/use-cases/payments/charge-invoice";
import { settleUnsettledRefunds } from "../src/use-cases/refunds/refund-credit-note";
import { createPayment } from "../src/use-cases/payments/create-payment";
import { wirePayment } from "../src/wiring";

/**
 * Credit notes' refunds on the real MongoDB test server, from two replicas: each refund_requested,
 * however often delivered, pays back once through the provider of the invoice's payment, and its
 * outcome reaches the note once; a refused refund announces Lago's credit_note.refund_failure once.
 * The invoicing service is the e2e suite's; here its notes are a ledger of what they were told.
 */
const dbName = uniqueName("payment_refunds");
const clock = new ManualClock(new Date("2024-02-01T00:00:00Z"));
const org = randomUUID();
const invoices = new Map<string, InvoiceRef>();
const invoicing: Invoicing = {
  find: async (_org, id) => invoices.get(id) ?? null,
  document: async () => null,
  applyPayment: async (_org, p) => {
    const invoice = invoices.get(p.invoice_id)!;
    const paid =
      p.outcome === "succeeded"
        ? {
            payment_status: "succeeded",
            total_due_amount_cents: Math.max(0, invoice.total_due_amount_cents - p.amount_cents),
          }
        : {};
    invoices.set(p.invoice_id, { ...invoice, ...paid });
    return invoices.get(p.invoice_id)!;
  },
};
const cards = new Map<string, string>();
const customers: Customers = {
  billing: async (_org, externalId) => ({
    payment_provider: "sandbox",
    payment_provider_code: "sandbox_eu",
    provider_customer_id: cards.get(externalId) ?? SANDBOX_CUSTOMERS.SUCCEEDS,
  }),
} as Customers;
const told: string[] = [];
const creditNotes: CreditNotes = {
  setRefundStatus: async (_org, id, status) => void told.push(`${id}|${status}`),
  close: () => undefined,
};
const connections: Connection[] = [];
let replicas: RefundWiring[];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) connections.push(await connectMongo({ url: infraUrls().mongoUrl, dbName }));
  replicas = connections.map((c) => {
    const payment = wirePayment(c, {
      clock,
      customers,
      invoicing,
      publicUrl: "http://127.0.0.1:3000",
      returnUrl: "http://127.0.0.1:3000/done",
    });
    return wireRefunds(c, payment.deps, { creditNotes });
  });
  await initModels(connections[0]!);
});

afterAll(async () => {
  await dropTestDatabase(connections[0]);
  await Promise.all(connections.map((c) => c.close()));
});

async function paidInvoice(externalCustomerId: string, card: string): Promise<InvoiceRef> {
  cards.set(externalCustomerId, card);
  const invoice: InvoiceRef = {
    id: randomUUID(),
    number: "INV-1",
    status: "finalized",
    payment_status: "pending",
    currency: "EUR",
    total_amount_cents: 1_200,
    total_due_amount_cents: 1_200,
    customer_id: `cus-${externalCustomerId}`,
    external_customer_id: externalCustomerId,
    overpayments: [],
  };
  invoices.set(invoice.id, invoice);
  const payment = await chargeInvoice(replicas[0]!.deps, invoice, org, 1);
  expect(payment).toMatchObject({ payment_status: "succeeded" });
  return invoice;
}

const refundRequested = (invoice: InvoiceRef, noteId: string, refundCents: number) =>
  domainEvent(Subjects.invoicing.creditNoteRefundRequested, {
    organizationId: org,
    occurredAt: clock.now(),
    data: {
      credit_note: {
        svc_id: noteId,
        number: "CN-1",
        svc_invoice_id: invoice.id,
        invoice_number: invoice.number,
        customer: { svc_id: invoice.customer_id, external_id: invoice.external_customer_id },
        billing_entity_code: null,
        currency: "EUR",
        reason: "other",
        credit_status: null,
        refund_status: "pending",
        total_amount_cents: refundCents,
        credit_amount_cents: 0,
        refund_amount_cents: refundCents,
        offset_amount_cents: 0,
        balance_amount_cents: 0,
        taxes_amount_cents: 0,
        issuing_date: "2024-02-01",
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      },
    },
  });

const deliverEverywhere = (envelope: ReturnType<typeof refundRequested>, times = 3) =>
  Promise.all(replicas.flatMap((r) => Array.from({ length: times }, () => refundRequestedHandler(r.deps)(envelope))));

describe("credit notes' refunds", () => {
  it("pays a refund back once through the invoice's provider, however often and wherever it is delivered, and tells the note once it succeeded", async () => {
    const invoice = await paidInvoice("acme", SANDBOX_CUSTOMERS.SUCCEEDS);
    const noteId = randomUUID();
    await deliverEverywhere(refundRequested(invoice, noteId, 700));
    const refunds = await connections[0]!.collection("refunds").find({ credit_note_id: noteId }).toArray();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      status: "succeeded",
      amount_cents: 700,
      currency: "EUR",
      applied: true,
      provider: { type: "sandbox", code: "sandbox_eu" },
    });
    expect(refunds[0]!.provider_refund_id).toMatch(/^sbx_re_/);
    expect(
      await connections[0]!.collection("sandbox_charges").countDocuments({ _id: `refund ${refunds[0]!._id}` as never }),
    ).toBe(1);
    expect(new Set(told.filter((t) => t.startsWith(noteId)))).toEqual(new Set([`${noteId}|succeeded`]));
    // a succeeded refund announces nothing
    expect(refunds[0]!.outbox ?? []).toEqual([]);
  });

  it("records a refund the provider refuses, tells the note it failed and announces credit_note.refund_failure once", async () => {
    const invoice = await paidInvoice("refuser", SANDBOX_CUSTOMERS.REFUND_FAILS);
    const noteId = randomUUID();
    await deliverEverywhere(refundRequested(invoice, noteId, 1_200));
    const [refund] = await connections[0]!.collection("refunds").find({ credit_note_id: noteId }).toArray();
    expect(refund).toMatchObject({
      status: "failed",
      applied: true,
      failure: { message: "Refund failed to perform", error_code: "charge_not_refundable" },
    });
    expect(new Set(told.filter((t) => t.startsWith(noteId)))).toEqual(new Set([`${noteId}|failed`]));
    // without a bus the event waits in the refund's outbox: one, with Lago's refund error object
    expect(refund!.outbox).toHaveLength(1);
    expect(refund!.outbox[0]).toMatchObject({
      type: Subjects.payment.refundFailed,
      data: {
        credit_note_payment_provider_refund_error: {
          svc_credit_note_id: noteId,
          svc_customer_id: "cus-refuser",
          external_customer_id: "refuser",
          provider_customer_id: SANDBOX_CUSTOMERS.REFUND_FAILS,
          payment_provider: "sandbox",
          payment_provider_code: "sandbox_eu",
          provider_error: { message: "Refund failed to perform", error_code: "charge_not_refundable" },
        },
      },
    });
  });

  it("asks the provider again about a refund it left pending, from any replica, and tells the note once it settled", async () => {
    const invoice = await paidInvoice("slow", SANDBOX_CUSTOMERS.REFUND_PENDING);
    const noteId = randomUUID();
    await deliverEverywhere(refundRequested(invoice, noteId, 500));
    const refunds = () => connections[0]!.collection("refunds").find({ credit_note_id: noteId }).toArray();
    const [pending] = await refunds();
    expect(pending).toMatchObject({ status: "pending", applied: false, asked_at: expect.any(Date) });
    expect(told.filter((t) => t.startsWith(noteId))).toEqual([]);
    // asked a moment ago: not asked again before the recheck delay
    expect(await settleUnsettledRefunds(replicas[0]!.deps, { recheckMs: 60_000 })).toBe(0);
    expect((await refunds())[0]).toMatchObject({ status: "pending" });
    // both replicas' sweepers at once, past the delay: asked before the sandbox settles it (its record made
    // fresh, so a slow machine does not pass the sandbox's half second meanwhile), still pending
    const sandbox = connections[0]!.collection("sandbox_charges");
    expect((await sandbox.findOne({ _id: `refund ${pending!._id}` as never }))?.at).toBeInstanceOf(Date);
    await sandbox.updateOne(
      { _id: `refund ${pending!._id}` as never },
      { $set: { at: new Date(Date.now() + 60_000) } },
    );
    await Promise.all(replicas.map((r) => settleUnsettledRefunds(r.deps, { recheckMs: 0 })));
    expect((await refunds())[0]).toMatchObject({ status: "pending", applied: false });
    // the provider's time passes (the sandbox's record made older): it has settled, paid back once, told once
    await sandbox.updateOne(
      { _id: `refund ${pending!._id}` as never },
      { $set: { at: new Date(Date.now() - REFUND_SETTLES_AFTER_MS) } },
    );
    await Promise.all(replicas.map((r) => settleUnsettledRefunds(r.deps, { recheckMs: 0 })));
    const [settled] = await refunds();
    expect(settled).toMatchObject({
      status: "succeeded",
      applied: true,
      provider_refund_id: expect.stringMatching(/^sbx_re_/),
    });
    expect(
      await connections[0]!.collection("sandbox_charges").countDocuments({ _id: `refund ${settled!._id}` as never }),
    ).toBe(1);
    expect(new Set(told.filter((t) => t.startsWith(noteId)))).toEqual(new Set([`${noteId}|succeeded`]));
    // nothing left to settle: the sweeper reads it no more
    expect((await replicas[0]!.deps.refunds.unsettled(100, new Date())).map((r) => r.id)).not.toContain(settled!._id);
  });

  it("finishes a refund a crash left after the provider paid it back: paid once, told once", async () => {
    const invoice = await paidInvoice("crashy", SANDBOX_CUSTOMERS.SUCCEEDS);
    const noteId = randomUUID();
    const envelope = refundRequested(invoice, noteId, 300);
    // a replica stored the refund and asked the provider, then died before writing the outcome
    await refundRequestedHandler(replicas[0]!.deps)(envelope);
    const [first] = await connections[0]!.collection("refunds").find({ credit_note_id: noteId }).toArray();
    await connections[0]!
      .collection("refunds")
      .updateOne({ _id: first!._id }, { $set: { status: "pending", applied: false, provider_refund_id: null } });
    await deliverEverywhere(envelope, 2);
    const [after] = await connections[0]!.collection("refunds").find({ credit_note_id: noteId }).toArray();
    expect(after).toMatchObject({ status: "succeeded", applied: true, provider_refund_id: first!.provider_refund_id });
    expect(
      await connections[0]!.collection("sandbox_charges").countDocuments({ _id: `refund ${first!._id}` as never }),
    ).toBe(1);
  });

  it("executes nothing for an invoice paid by hand or not paid (the note's refund stays pending, as Lago)", async () => {
    const unpaid: InvoiceRef = { ...(await paidInvoice("x", SANDBOX_CUSTOMERS.SUCCEEDS)), id: randomUUID() };
    invoices.set(unpaid.id, unpaid);
    const noteId = randomUUID();
    await deliverEverywhere(refundRequested(unpaid, noteId, 100), 1);
    const manual: InvoiceRef = { ...unpaid, id: randomUUID(), external_customer_id: "by-hand" };
    invoices.set(manual.id, manual);
    await createPayment(replicas[0]!.deps, org, { invoice_id: manual.id, amount_cents: 1_200, reference: "wire" });
    const manualNote = randomUUID();
    await deliverEverywhere(refundRequested(manual, manualNote, 100), 1);
    expect(
      await connections[0]!.collection("refunds").countDocuments({ credit_note_id: { $in: [noteId, manualNote] } }),
    ).toBe(0);
    expect(told.filter((t) => t.startsWith(noteId) || t.startsWith(manualNote))).toEqual([]);
  });
});
