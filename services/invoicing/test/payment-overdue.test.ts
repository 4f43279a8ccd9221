import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Streams, Subjects, type Envelope } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import type { CustomerViewData, EventData } from "@billing/contracts";
import { collectEvents } from "@billing/testkit";
import { announceOverdueInvoices } from "../src/use-cases/invoices/announce-overdue-invoices";
import { runDueWork } from "../src/use-cases/scheduled-work/run-due-work";
import {
  customerView,
  eventually,
  planView,
  startInvoicingHarness,
  subscriptionView,
  type InvoicingHarness,
} from "./harness";

// billing.invoicing.invoice.payment_overdue (Lago's invoice.payment_overdue): announced once per
// invoice when the organization's clock passes its payment due date unpaid, from the invoice's
// outbox; two replicas of the service on one database, as in production.
let h: InvoicingHarness;

beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_overdue", { replicas: 2, limits: { batch: 3, concurrency: 2 } });
});

afterAll(async () => {
  await h?.close();
});

const S = Subjects.catalog;
const OVERDUE = Subjects.invoicing.invoicePaymentOverdue;
type Received = Envelope<EventData<typeof OVERDUE>>;

/** `customers` customers (10 days to pay) of a sandbox organization (`at` given) or an ordinary one, on a monthly arrears plan started Jan 1. */
async function seed(customers: number, options: { sandbox?: boolean } = {}) {
  const org = randomUUID();
  const plan = planView();
  const at = options.sandbox === false ? undefined : "2024-01-01T00:00:00.000Z";
  const views: CustomerViewData[] = [];
  for (let i = 0; i < customers; i++) {
    const customer = customerView({ sequential_id: i + 1, net_payment_term: 10 });
    views.push(customer);
    await h.publishCustomer(org, customer, at);
    await h.publishSubscription(
      S.subscriptionStarted,
      org,
      { subscription: subscriptionView(customer, plan), plan },
      at,
    );
  }
  await h.caughtUp();
  return { org, customers: views };
}

const runDue = (org: string, at: string) => h.scheduled.call("RunDue", { organization_id: org, at });
const nextDue = async (org: string, after: string) =>
  (await h.scheduled.call("NextDue", { organization_id: org, after })).due_at;
const invoicesOf = async (org: string) =>
  (await h.replicas[0]!.deps.invoices.list(org, {}, { page: 1, perPage: 100 })).items;
/** Lets what was published reach a subscriber (to tell that nothing more came). */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("payment overdue", () => {
  it("announces an unpaid invoice once, when its organization's clock passes the payment due date, and not before", async () => {
    const { org } = await seed(1);
    const overdue = collectEvents<Received>(h.bus.nc, OVERDUE, org);
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const [invoice] = await invoicesOf(org);
    expect(invoice).toMatchObject({ status: "finalized", payment_status: "pending", payment_due_date: "2024-02-11" });
    // the test clock is told when it becomes overdue: the start of the day after its due date
    expect(await nextDue(org, "2024-02-01T00:00:00.000Z")).toBe("2024-02-12T00:00:00.000Z");
    // on its due date it is not overdue yet
    expect((await runDue(org, "2024-02-11T23:59:59.999Z")).done).toBe(0);
    await settle();
    expect(overdue.received).toHaveLength(0);
    expect((await h.replicas[0]!.deps.invoices.findById(invoice!.id))!.payment_overdue_announced_at ?? null).toBeNull();
    // the day after, it is: announced once, at that time (the envelope carries the frozen time)
    expect((await runDue(org, "2024-02-12T00:00:00.000Z")).done).toBe(1);
    await eventually(() => overdue.received.length === 1, "payment_overdue");
    expect(overdue.received[0]).toMatchObject({
      type: OVERDUE,
      organization_id: org,
      occurred_at: "2024-02-12T00:00:00.000Z",
      frozen_time: "2024-02-12T00:00:00.000Z",
      data: {
        invoice: {
          svc_id: invoice!.id,
          status: "finalized",
          payment_status: "pending",
          payment_due_date: "2024-02-11",
          number: invoice!.number,
        },
      },
    });
    const stored = await h.connection.collection("invoices").findOne({ _id: invoice!.id as never });
    expect(stored).toMatchObject({ payment_overdue_announced_at: new Date("2024-02-12T00:00:00.000Z"), outbox: [] });
    // later steps (the March boundary bills the next invoice) never announce it again, and the
    // next overdue the clock is told of is March's invoice
    expect(await nextDue(org, "2024-02-12T00:00:00.000Z")).toBe("2024-03-01T00:00:00.000Z");
    await runDue(org, "2024-03-01T00:00:00.000Z");
    expect((await runDue(org, "2024-03-05T00:00:00.000Z")).done).toBe(0);
    expect(await nextDue(org, "2024-03-05T00:00:00.000Z")).toBe("2024-03-12T00:00:00.000Z");
    await settle();
    expect(overdue.received).toHaveLength(1);
    overdue.stop();
  });

  it("never announces an invoice paid before its due date passed; one whose payment failed is announced", async () => {
    const { org, customers } = await seed(2);
    const overdue = collectEvents<Received>(h.bus.nc, OVERDUE, org);
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const invoices = await invoicesOf(org);
    const paid = invoices.find((i) => i.customer_id === customers[0]!.svc_id)!;
    const failed = invoices.find((i) => i.customer_id === customers[1]!.svc_id)!;
    await h.invoicing.call("UpdateInvoice", { organization_id: org, id: paid.id, payment_status: "succeeded" });
    await h.invoicing.call("UpdateInvoice", { organization_id: org, id: failed.id, payment_status: "failed" });
    expect((await runDue(org, "2024-02-20T00:00:00.000Z")).done).toBe(1);
    await eventually(() => overdue.received.length === 1, "payment_overdue");
    expect(overdue.received.map((e) => [e.data.invoice.svc_id, e.data.invoice.payment_status])).toEqual([
      [failed.id, "failed"],
    ]);
    expect((await h.replicas[0]!.deps.invoices.findById(paid.id))!.payment_overdue_announced_at ?? null).toBeNull();
    // nothing overdue is left to tell the clock of but the next billing
    expect(await nextDue(org, "2024-02-20T00:00:00.000Z")).toBe("2024-03-01T00:00:00.000Z");
    await settle();
    expect(overdue.received).toHaveLength(1);
    overdue.stop();
  });

  it("announces each overdue invoice once under concurrent checks by two replicas, repeated", async () => {
    const { org } = await seed(7);
    const overdue = collectEvents<Received>(h.bus.nc, OVERDUE, org);
    const inStream = async () =>
      (await h.bus.jsm.streams.info(Streams.invoicing.name, { subjects_filter: OVERDUE })).state.subjects?.[OVERDUE] ??
      0;
    const before = await inStream();
    await runDue(org, "2024-02-01T00:00:00.000Z");
    expect(await invoicesOf(org)).toHaveLength(7);
    const at = new Date("2024-02-12T00:00:00Z");
    // three checks per replica at once, each a batch of 3 (the due query sees the same invoices)
    const checks = await Promise.all(
      h.replicas.flatMap((r) =>
        [0, 1, 2].map(() => atFrozenTime(at, () => announceOverdueInvoices(r.deps, { organizationId: org }))),
      ),
    );
    // then the whole due work, by both, until nothing is left
    const runs = await Promise.all(
      h.replicas.map((r) => atFrozenTime(at, () => runDueWork(r.deps, { organizationId: org }))),
    );
    expect([...checks, ...runs].reduce((a, b) => a + b, 0)).toBe(7);
    await eventually(() => overdue.received.length >= 7, "7 payment_overdue");
    await settle();
    // a plain subscriber may see an envelope twice (the outbox relay and the writer both publish it);
    // the stream keeps it once (de-duplicated by envelope id): 7 announcements, one per invoice
    const ids = overdue.received.map((e) => e.data.invoice.svc_id);
    expect(new Set(ids).size).toBe(7);
    expect((await inStream()) - before).toBe(7);
    // a check repeated later (a redelivered step, another replica's scheduler) finds nothing
    expect(
      await atFrozenTime(new Date("2024-02-20T00:00:00Z"), () =>
        announceOverdueInvoices(h.replicas[1]!.deps, { organizationId: org }),
      ),
    ).toBe(0);
    expect(
      await h.connection
        .collection("invoices")
        .countDocuments({ organization_id: org, payment_overdue_announced_at: at }),
    ).toBe(7);
    overdue.stop();
  });

  it("announces an ordinary organization's overdue invoice from the scheduler's pass on the system clock", async () => {
    const { org } = await seed(1, { sandbox: false });
    const overdue = collectEvents<Received>(h.bus.nc, OVERDUE, org);
    h.clock.set("2024-02-01T00:00:00Z");
    await runDueWork(h.replicas[0]!.deps); // the scheduler's pass: ordinary organizations
    const [invoice] = await invoicesOf(org);
    expect(invoice).toMatchObject({ status: "finalized", sandbox: false, payment_due_date: "2024-02-11" });
    h.clock.set("2024-02-11T12:00:00Z");
    await runDueWork(h.replicas[1]!.deps);
    await settle();
    expect(overdue.received).toHaveLength(0);
    h.clock.set("2024-02-12T00:00:01Z");
    await Promise.all(h.replicas.map((r) => runDueWork(r.deps)));
    await eventually(() => overdue.received.length === 1, "payment_overdue");
    expect(overdue.received[0]).toMatchObject({
      occurred_at: "2024-02-12T00:00:01.000Z",
      data: { invoice: { svc_id: invoice!.id } },
    });
    expect(overdue.received[0]!.frozen_time).toBeUndefined();
    await runDueWork(h.replicas[0]!.deps);
    await settle();
    expect(overdue.received).toHaveLength(1);
    overdue.stop();
  });
});
