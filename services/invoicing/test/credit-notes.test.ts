import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import { createCreditNote } from "../src/use-cases/credit-notes/create-credit-note";
import { finalizeOpenInvoice } from "../src/use-cases/invoices/finalize-open-invoice";
import { customerView, planView, startInvoicingHarness, subscriptionView, type InvoicingHarness } from "./harness";

// A credit note's balance is taken by the customer's next invoice exactly once: two replicas
// racing to finalize it, retries, and a finalization resumed after a crash that followed the
// consumption all leave one consumption on the note and the same credit on the invoice.
let h: InvoicingHarness;

beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_credit_notes", { replicas: 2, limits: { batch: 25, concurrency: 4 } });
});

afterAll(async () => {
  await h?.close();
});

const noGrace = {
  invoice_grace_period: null,
  subscription_invoice_issuing_date_anchor: null,
  subscription_invoice_issuing_date_adjustment: null,
};

/** A customer with one 100.00 monthly plan in arrears and a 5-day grace period, and its February invoice finalized with a 30.00 credit note on it. */
async function customerWithCreditNote(creditCents = 3_000) {
  const org = randomUUID();
  const plan = planView();
  const customer = customerView({ billing_configuration: { ...noGrace, invoice_grace_period: 5 } });
  await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
  await h.publishSubscription(
    Subjects.catalog.subscriptionStarted,
    org,
    { subscription: subscriptionView(customer, plan), plan },
    "2024-01-01T00:00:00.000Z",
  );
  await h.caughtUp();
  await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
  const deps = h.replicas[0]!.deps;
  const [draft] = (await deps.invoices.list(org, {}, { page: 1, perPage: 10 })).items;
  const february = (await atFrozenTime(new Date("2024-02-01T00:00:00Z"), () =>
    finalizeOpenInvoice(deps, draft!.id, { refresh: false }),
  ))!;
  expect(february).toMatchObject({
    status: "finalized",
    amounts: expect.objectContaining({ total_amount_cents: 10_000 }),
  });
  const fee = february.fees.find((f) => f.fee_type === "subscription")!;
  const note = await atFrozenTime(new Date("2024-02-02T00:00:00Z"), () =>
    createCreditNote(deps, org, february.id, {
      credit_amount_cents: creditCents,
      refund_amount_cents: 0,
      offset_amount_cents: 0,
      items: [{ fee_id: fee.id, amount_cents: creditCents }],
    }),
  );
  expect(note).toMatchObject({
    balance_amount_cents: creditCents,
    credit_status: "available",
    number: `${february.number}-CN001`,
  });
  await h.scheduled.call("RunDue", { organization_id: org, at: "2024-03-01T00:00:00.000Z" });
  const march = (await deps.invoices.list(org, {}, { page: 1, perPage: 10 })).items.find((i) => i.status === "draft")!;
  return { org, deps, february, note, march };
}

describe("credit notes consumed by later invoices", () => {
  it("takes a note's balance once, however many finalizers race and retry", async () => {
    const { deps, note, march } = await customerWithCreditNote();
    h.clock.set("2024-03-02T00:00:00Z");
    await Promise.all(
      h.replicas.flatMap((r) => [0, 1, 2].map(() => finalizeOpenInvoice(r.deps, march.id, { refresh: false }))),
    );
    const final = (await deps.invoices.findById(march.id))!;
    expect(final.status).toBe("finalized");
    expect(final.amounts).toMatchObject({
      sub_total_including_taxes_amount_cents: 10_000,
      credit_notes_amount_cents: 3_000,
      total_amount_cents: 7_000,
    });
    expect(final.credits).toEqual([
      expect.objectContaining({
        amount_cents: 3_000,
        item: expect.objectContaining({ type: "credit_note", id: note.id }),
      }),
    ]);
    const consumed = (await deps.creditNotes.findById(note.id))!;
    expect(consumed).toMatchObject({
      balance_amount_cents: 0,
      credit_status: "consumed",
      consumptions: [{ invoice_id: march.id, amount_cents: 3_000 }],
    });
  });

  it("resumes a finalization interrupted after the note was consumed: the same credit, nothing taken twice", async () => {
    const { org, deps, note, march } = await customerWithCreditNote(10_000);
    // the first finalizer "crashes" right after the note recorded its share (numbering fails)
    const numbers = deps.numbers;
    const allocate = numbers.allocate.bind(numbers);
    numbers.allocate = async () => {
      throw new Error("crash");
    };
    await expect(
      atFrozenTime(new Date("2024-03-01T00:00:00Z"), () => finalizeOpenInvoice(deps, march.id, { refresh: false })),
    ).rejects.toThrow("crash");
    numbers.allocate = allocate;
    expect((await deps.creditNotes.findById(note.id))!.consumptions).toEqual([
      { invoice_id: march.id, amount_cents: 10_000 },
    ]);
    // the due pass resumes it
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-03-01T00:00:00.000Z" });
    const final = (await deps.invoices.findById(march.id))!;
    expect(final).toMatchObject({ status: "finalized", payment_status: "succeeded" });
    expect(final.amounts).toMatchObject({ credit_notes_amount_cents: 10_000, total_amount_cents: 0 });
    expect((await deps.creditNotes.findById(note.id))!).toMatchObject({
      balance_amount_cents: 0,
      credit_status: "consumed",
      consumptions: [{ invoice_id: march.id, amount_cents: 10_000 }],
    });
  });

  it("a note voided before the finalization gives nothing", async () => {
    const { org, deps, note, march } = await customerWithCreditNote();
    const { voidCreditNote } = await import("../src/use-cases/credit-notes/void-credit-note");
    await voidCreditNote(deps, org, note.id);
    const final = (await atFrozenTime(new Date("2024-03-06T00:00:00Z"), () =>
      finalizeOpenInvoice(deps, march.id, { refresh: false }),
    ))!;
    expect(final.amounts).toMatchObject({ credit_notes_amount_cents: 0, total_amount_cents: 10_000 });
  });
});

describe("termination credit of a pay-in-advance plan", () => {
  it("credits the unused days once, however often the termination is delivered and by whichever replica", async () => {
    const org = randomUUID();
    const plan = planView({ amount_cents: 3_100, pay_in_advance: true, charges: [] });
    const customer = customerView();
    await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
    const subscription = subscriptionView(customer, plan);
    await h.publishSubscription(
      Subjects.catalog.subscriptionStarted,
      org,
      { subscription, plan },
      "2024-01-01T00:00:00.000Z",
    );
    await h.caughtUp();
    const deps = h.replicas[0]!.deps;
    const [starting] = (await deps.invoices.list(org, {}, { page: 1, perPage: 10 })).items;
    expect(starting).toMatchObject({
      status: "finalized",
      amounts: expect.objectContaining({ total_amount_cents: 3_100 }),
    });
    // terminated on Jan 11: Jan 12–31 unused, 20 of 31 days of 31.00 = 20.00; the event delivered three times
    const terminated = { ...subscription, status: "terminated" as const, terminated_at: "2024-01-11T10:00:00.000Z" };
    for (let i = 0; i < 3; i++)
      await h.publishSubscription(
        Subjects.catalog.subscriptionTerminated,
        org,
        { subscription: terminated, plan },
        "2024-01-11T10:00:00.000Z",
      );
    await h.caughtUp();
    const notes = await deps.creditNotes.ofInvoice(starting!.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      termination_of: subscription.svc_id,
      credit_amount_cents: 2_000,
      total_amount_cents: 2_000,
      balance_amount_cents: 2_000,
      reason: "order_change",
    });
  });
});
