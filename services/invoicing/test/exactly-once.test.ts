import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import type { CatalogMessages } from "@billing/contracts";
import { finalizeOpenInvoice } from "../src/use-cases/invoices/finalize-open-invoice";
import { runDueWork } from "../src/use-cases/scheduled-work/run-due-work";
import { customerView, planView, startInvoicingHarness, subscriptionView, type InvoicingHarness } from "./harness";

// Exactly once with two replicas of the service wired on one database (and one bus): a boundary,
// a finalization, a coupon and a number are each done once, whoever gets there first and however
// often it is retried.
let h: InvoicingHarness;

beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_once", { replicas: 2, limits: { batch: 25, concurrency: 4 } });
});

afterAll(async () => {
  await h?.close();
});

const S = Subjects.catalog;
const noGrace = {
  invoice_grace_period: null,
  subscription_invoice_issuing_date_anchor: null,
  subscription_invoice_issuing_date_adjustment: null,
};

/** A sandbox organization with `customers` customers, each with `perCustomer` monthly subscriptions started on Jan 1. */
async function seed(customers: number, perCustomer = 1, grace = 0) {
  const org = randomUUID();
  const plan = planView();
  const ids: string[] = [];
  for (let i = 0; i < customers; i++) {
    const customer = customerView({
      sequential_id: i + 1,
      billing_configuration: { ...noGrace, invoice_grace_period: grace || null },
    });
    ids.push(customer.svc_id);
    await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
    for (let j = 0; j < perCustomer; j++) {
      await h.publishSubscription(
        S.subscriptionStarted,
        org,
        { subscription: subscriptionView(customer, plan), plan },
        "2024-01-01T00:00:00.000Z",
      );
    }
  }
  await h.caughtUp();
  return { org, customers: ids };
}

const allInvoices = (org: string) => h.replicas[0]!.deps.invoices.list(org, {}, { page: 1, perPage: 1000 });

describe("billing runs", () => {
  it("bills one boundary run by two replicas at once: one invoice per customer, each numbered once", async () => {
    const { org } = await seed(30, 2);
    const at = new Date("2024-02-01T00:00:00Z");
    const calls = h.peers.chargeUsageCalls.length;
    const done = await Promise.all(
      h.replicas.map((r) => atFrozenTime(at, () => runDueWork(r.deps, { organizationId: org }))),
    );
    expect(done.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60);
    const { items, total } = await allInvoices(org);
    expect(total).toBe(30);
    expect(
      items.every((i) => i.status === "finalized" && i.lines.length === 2 && i.amounts.total_amount_cents === 20_000),
    ).toBe(true);
    expect(items.every((i) => i.number.endsWith("-001") && i.sequential_id === 1)).toBe(true);
    expect(new Set(items.map((i) => i.number)).size).toBe(30);
    // usage was read in batches (25 subscriptions a pass per replica), never once per subscription
    const newCalls = h.peers.chargeUsageCalls.slice(calls);
    expect(newCalls.every((c) => c.consistent)).toBe(true);
    expect(newCalls.length).toBeLessThanOrEqual(12);
    // a second pass, by either replica, finds nothing left
    expect(await atFrozenTime(at, () => runDueWork(h.replicas[1]!.deps, { organizationId: org }))).toBe(0);
  });

  it("resumes missed boundaries: a jump across three of them gives three invoices, numbered in order", async () => {
    const { org } = await seed(1);
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-04-01T00:00:00.000Z" });
    const { items } = await allInvoices(org);
    expect(items.map((i) => [i.issuing_date, i.number.slice(-3)]).sort()).toEqual([
      ["2024-02-01", "001"],
      ["2024-03-01", "002"],
      ["2024-04-01", "003"],
    ]);
  });

  it("leaves sandbox organizations out of the scheduler's pass", async () => {
    const { org } = await seed(1);
    h.clock.set("2024-03-01T00:00:00Z");
    await runDueWork(h.replicas[0]!.deps); // the ordinary organizations' pass
    expect((await allInvoices(org)).total).toBe(0);
  });
});

describe("finalization", () => {
  const coupon = (
    customerId: string,
    overrides: Partial<CatalogMessages.AppliedCoupon>,
  ): CatalogMessages.AppliedCoupon => ({
    svc_id: randomUUID(),
    svc_coupon_id: randomUUID(),
    coupon_code: "welcome",
    coupon_name: "Welcome",
    svc_customer_id: customerId,
    external_customer_id: "x",
    status: "active",
    frequency: "once",
    created_at: "2024-01-01T00:00:00.000Z",
    coupon_status: "active",
    coupon_type: "fixed_amount",
    amount_cents: 500,
    amount_cents_remaining: 500,
    amount_currency: "EUR",
    plan_codes: [],
    billable_metric_codes: [],
    credits: [],
    ...overrides,
  });

  it("consumes each coupon once, however many finalizers race and retry", async () => {
    const { org, customers } = await seed(1, 1, 5);
    const [customerId] = customers;
    const fixed = coupon(customerId!, {});
    const percent = coupon(customerId!, {
      coupon_code: "ten",
      coupon_type: "percentage",
      frequency: "forever",
      percentage_rate: "10",
      amount_cents: undefined,
      amount_cents_remaining: undefined,
      created_at: "2024-01-02T00:00:00.000Z",
    });
    h.peers.coupons.set(customerId!, [fixed, percent]);
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
    const [draft] = (await allInvoices(org)).items;
    expect(draft).toMatchObject({ status: "draft", amounts: expect.objectContaining({ coupons_amount_cents: 0 }) }); // no coupons on a draft
    // both replicas, three times each, at once
    h.clock.set("2024-02-02T00:00:00Z");
    await Promise.all(
      h.replicas.flatMap((r) => [0, 1, 2].map(() => finalizeOpenInvoice(r.deps, draft!.id, { refresh: true }))),
    );
    const final = (await h.replicas[0]!.deps.invoices.findById(draft!.id))!;
    // 10000 − 500 (fixed, once) = 9500, then 10 % of 9500 = 950
    expect(final).toMatchObject({ status: "finalized", number: "ACM-4C1D-001-001" });
    expect(final.amounts).toMatchObject({
      fees_amount_cents: 10_000,
      coupons_amount_cents: 1_450,
      total_amount_cents: 8_550,
    });
    expect(final.credits.map((c) => [c.applied_coupon_id, c.amount_cents])).toEqual([
      [fixed.svc_id, 500],
      [percent.svc_id, 950],
    ]);
    expect([...h.peers.consumed.get(fixed.svc_id!)!.entries()]).toEqual([[draft!.id, 500]]);
    expect([...h.peers.consumed.get(percent.svc_id!)!.entries()]).toEqual([[draft!.id, 950]]);
    expect(fixed.status).toBe("terminated"); // the stand-in consumed it once: nothing left
  });

  it("resumes a finalization interrupted after its coupons were consumed: same credits, nothing consumed twice", async () => {
    const { org, customers } = await seed(1, 1, 5);
    const fixed = coupon(customers[0]!, { amount_cents: 300, amount_cents_remaining: 300 });
    h.peers.coupons.set(customers[0]!, [fixed]);
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
    const [draft] = (await allInvoices(org)).items;
    // the first finalizer "crashes" right after the catalog recorded the credit (numbering fails)
    const numbers = h.replicas[0]!.deps.numbers;
    const allocate = numbers.allocate.bind(numbers);
    numbers.allocate = async () => {
      throw new Error("crash");
    };
    await expect(
      atFrozenTime(new Date("2024-02-01T00:00:00Z"), () =>
        finalizeOpenInvoice(h.replicas[0]!.deps, draft!.id, { refresh: false }),
      ),
    ).rejects.toThrow("crash");
    numbers.allocate = allocate;
    expect((await h.replicas[0]!.deps.invoices.findById(draft!.id))!.status).toBe("draft");
    // the due pass picks the interrupted finalization up at once (not at the end of the grace period)
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
    const final = (await h.replicas[0]!.deps.invoices.findById(draft!.id))!;
    expect(final).toMatchObject({
      status: "finalized",
      amounts: expect.objectContaining({ coupons_amount_cents: 300, total_amount_cents: 9_700 }),
    });
    expect([...h.peers.consumed.get(fixed.svc_id!)!.entries()]).toEqual([[draft!.id, 300]]);
  });

  it("closes a zero-amount invoice when the customer skips them: no number taken, never shown", async () => {
    const org = randomUUID();
    const plan = planView({ amount_cents: 0 });
    const customer = customerView({ finalize_zero_amount_invoice: "skip" });
    await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
    await h.publishSubscription(
      S.subscriptionStarted,
      org,
      { subscription: subscriptionView(customer, plan), plan },
      "2024-01-01T00:00:00.000Z",
    );
    await h.caughtUp();
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
    expect((await allInvoices(org)).total).toBe(0);
    const [closed] = await h.replicas[0]!.deps.invoices.dueOpen(new Date("2100-01-01"), 1, { organizationId: org });
    expect(closed).toBeUndefined(); // nothing left open
    const stored = await h.connection.collection("invoices").findOne({ organization_id: org });
    expect(stored).toMatchObject({ status: "closed", number: "ACM-4C1D-DRAFT", sequential_id: null });
    expect(stored!.sequences).toBeUndefined();
  });
});

describe("numbering", () => {
  it("helps a finalizer that stopped between the counter and its invoice: no gap, no duplicate", async () => {
    const { org, customers } = await seed(3, 1, 5);
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
    const drafts = (await allInvoices(org)).items;
    expect(drafts).toHaveLength(3);
    const numbers = h.replicas[0]!.deps.numbers;
    const scope = { key: `entity:${org}:test`, role: "entity" as const };
    // A took number 1 on the counter, then stopped before writing it on its invoice
    const first = await numbers.allocate(scope, drafts[0]!.id);
    await h.connection
      .collection("invoices")
      .updateOne({ _id: drafts[0]!.id as never }, { $unset: { "sequences.entity": "" } });
    // B and C are numbered concurrently (one of them helps A first), then A is retried
    const [b, c] = await Promise.all([numbers.allocate(scope, drafts[1]!.id), numbers.allocate(scope, drafts[2]!.id)]);
    const a = await numbers.allocate(scope, drafts[0]!.id);
    expect(first).toBe(1);
    expect(a).toBe(1);
    expect([b, c].sort()).toEqual([2, 3]);
    expect(customers).toHaveLength(3);
  });

  it("numbers many invoices as one block; a block stopped before its invoices were written is completed by the next mover", async () => {
    const { org } = await seed(4, 1, 5);
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
    const ids = (await allInvoices(org)).items.map((i) => i.id);
    expect(ids).toHaveLength(4);
    const numbers = h.replicas[0]!.deps.numbers;
    const scope = { key: `entity:${org}:block`, role: "entity" as const };
    const block = await numbers.allocateMany(scope, ids.slice(0, 3));
    expect(ids.slice(0, 3).map((id) => block.get(id))).toEqual([1, 2, 3]);
    // the block's writer stopped before writing two of its numbers
    await h.connection
      .collection("invoices")
      .updateMany({ _id: { $in: ids.slice(1, 3) as never[] } }, { $unset: { "sequences.entity": "" } });
    const [late, again] = await Promise.all([
      numbers.allocate(scope, ids[3]!),
      numbers.allocateMany(scope, ids.slice(1, 3)),
    ]);
    expect(late).toBe(4);
    expect(ids.slice(1, 3).map((id) => again.get(id))).toEqual([2, 3]);
    const stored = await h.connection
      .collection("invoices")
      .find({ _id: { $in: ids as never[] } })
      .toArray();
    expect(ids.map((id) => stored.find((d) => d._id === (id as never))!.sequences.entity)).toEqual([1, 2, 3, 4]);
  });
});
