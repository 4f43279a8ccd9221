import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects, type Envelope } from "@billing/bus";
import type { EventData, InvoicingMessages, Subject } from "@billing/contracts";
import { collectEvents } from "@billing/testkit";
import {
  customerView,
  eventually,
  planView,
  startInvoicingHarness,
  subscriptionView,
  type InvoicingHarness,
} from "./harness";

// Billing through the wired service: events on the real bus feed the read copies, a test clock's
// RunDue bills (gRPC, at the frozen time), invoices are read through the InvoiceService.
let h: InvoicingHarness;

beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_billing");
});

afterAll(async () => {
  await h?.close();
});

const S = Subjects.catalog;
type Invoice = InvoicingMessages.Invoice__Output;

async function invoicesOf(org: string, externalCustomerId?: string): Promise<Invoice[]> {
  const res = await h.invoicing.call("ListInvoices", {
    organization_id: org,
    page: { page: 1, per_page: 100 },
    ...(externalCustomerId ? { external_customer_id: externalCustomerId } : {}),
  });
  return res.invoices;
}

async function runDue(org: string, at: string) {
  return h.scheduled.call("RunDue", { organization_id: org, at });
}

/** A sandbox organization with one customer and one subscription, started at `startedAt` (its events on the bus). */
async function story(
  options: {
    plan?: Parameters<typeof planView>[0];
    customer?: Parameters<typeof customerView>[0];
    subscription?: Record<string, unknown>;
    startedAt?: string;
  } = {},
) {
  const org = randomUUID();
  const startedAt = options.startedAt ?? "2024-01-01T00:00:00.000Z";
  const customer = customerView(options.customer);
  const plan = planView(options.plan);
  const subscription = subscriptionView(customer, plan, {
    started_at: startedAt,
    subscription_at: startedAt,
    created_at: startedAt,
    ...options.subscription,
  });
  await h.publishCustomer(org, customer, startedAt);
  await h.caughtUp();
  await h.publishSubscription(S.subscriptionStarted, org, { subscription, plan }, startedAt);
  await h.caughtUp();
  return { org, customer, plan, subscription };
}

describe("subscription invoices", () => {
  it("bills a monthly arrears plan at its boundary, to the cent: base fee and usage, numbered", async () => {
    const { org, customer, subscription } = await story();
    // 7 calls in January at 0.50 = 350 cents; one in February is not January's
    h.peers.usage.set(subscription.svc_id, [
      ...Array.from({ length: 7 }, (_, i) => ({ at: `2024-01-${10 + i}T10:00:00.000Z`, units: 1 })),
      { at: "2024-02-01T00:00:00.000Z", units: 1 },
    ]);
    expect(await invoicesOf(org)).toHaveLength(0); // an arrears plan bills nothing when it starts
    expect(
      (await h.scheduled.call("NextDue", { organization_id: org, after: "2024-01-01T00:00:00.000Z" })).due_at,
    ).toBe("2024-02-01T00:00:00.000Z");
    const calls = h.peers.chargeUsageCalls.length;
    await runDue(org, "2024-02-01T00:00:00.000Z");
    expect(h.peers.chargeUsageCalls.slice(calls)).toEqual([{ periods: 1, consistent: true }]); // one batched, consistent usage call
    const [invoice] = await invoicesOf(org);
    expect(invoice).toMatchObject({
      invoice_type: "subscription",
      status: "finalized",
      payment_status: "pending",
      currency: "EUR",
      issuing_date: "2024-02-01",
      payment_due_date: "2024-02-01",
      fees_amount_cents: 10_350,
      taxes_amount_cents: 0,
      total_amount_cents: 10_350,
      number: "ACM-4C1D-001-001",
      sequential_id: 1,
      billing_entity_code: "default",
    });
    expect(invoice!.customer).toMatchObject({ svc_id: customer.svc_id, external_id: customer.external_id });
    expect(invoice!.fees.map((f) => [f.item!.type, f.amount_cents, f.units, f.from_date, f.to_date])).toEqual([
      ["subscription", 10_000, "1.0", "2024-01-01T00:00:00.000Z", "2024-01-31T23:59:59.999Z"],
      ["charge", 350, "7.0", "2024-01-01T00:00:00.000Z", "2024-01-31T23:59:59.999Z"],
    ]);
    expect(invoice!.billing_periods).toEqual([
      expect.objectContaining({
        svc_subscription_id: subscription.svc_id,
        invoicing_reason: "subscription_periodic",
        subscription_from_datetime: "2024-01-01T00:00:00.000Z",
        charges_to_datetime: "2024-01-31T23:59:59.999Z",
      }),
    ]);
    // the next boundary is a month on (after the unpaid invoice becomes overdue the next day), and
    // a second run at the same time bills nothing more
    expect((await runDue(org, "2024-02-01T00:00:00.000Z")).done).toBe(0);
    expect(
      (await h.scheduled.call("NextDue", { organization_id: org, after: "2024-02-01T00:00:00.000Z" })).due_at,
    ).toBe("2024-02-02T00:00:00.000Z");
    expect(
      (await h.scheduled.call("NextDue", { organization_id: org, after: "2024-02-02T00:00:00.000Z" })).due_at,
    ).toBe("2024-03-01T00:00:00.000Z");
  });

  it("bills a pay-in-advance plan when it starts, within seconds of the catalog's event", async () => {
    const { org, subscription } = await story({
      plan: { pay_in_advance: true, amount_cents: 3_100 },
      startedAt: "2024-01-15T09:00:00.000Z",
    });
    const [invoice] = await eventually(async () => {
      const l = await invoicesOf(org);
      return l.length ? l : null;
    }, "starting invoice");
    // January 15–31 of a 31-day month, in advance: round(17 × 3100 / 31) = 1700
    expect(invoice).toMatchObject({ status: "finalized", fees_amount_cents: 1_700, issuing_date: "2024-01-15" });
    expect(invoice!.billing_periods[0]).toMatchObject({
      svc_subscription_id: subscription.svc_id,
      invoicing_reason: "subscription_starting",
    });
    expect(invoice!.fees.map((f) => [f.item!.type, f.from_date, f.to_date])).toEqual([
      ["subscription", "2024-01-15T00:00:00.000Z", "2024-01-31T23:59:59.999Z"],
    ]);
  });

  it("bills a termination at once: the base fee to the termination day and the usage so far", async () => {
    const { org, plan, subscription } = await story({ plan: { amount_cents: 3_100 } });
    h.peers.usage.set(subscription.svc_id, [
      { at: "2024-01-05T10:00:00.000Z", units: 4 },
      { at: "2024-01-20T10:00:00.000Z", units: 4 },
    ]);
    const terminatedAt = "2024-01-10T12:00:00.000Z";
    await h.publishSubscription(
      S.subscriptionTerminated,
      org,
      { subscription: { ...subscription, status: "terminated", terminated_at: terminatedAt }, plan },
      terminatedAt,
    );
    const [invoice] = await eventually(async () => {
      const l = await invoicesOf(org);
      return l.length ? l : null;
    }, "termination invoice");
    // 10 days of 31 × 3100 = 1000; 4 calls up to the termination = 200
    expect(invoice).toMatchObject({ status: "finalized", fees_amount_cents: 1_200, issuing_date: "2024-01-10" });
    expect(invoice!.billing_periods[0]).toMatchObject({
      invoicing_reason: "subscription_terminating",
      charges_to_datetime: terminatedAt,
    });
    // nothing more is ever billed for it: what is left is its invoice becoming overdue, unpaid, the next day
    expect((await h.scheduled.call("NextDue", { organization_id: org, after: terminatedAt })).due_at).toBe(
      "2024-01-11T00:00:00.000Z",
    );
    expect(
      (await h.scheduled.call("NextDue", { organization_id: org, after: "2024-01-11T00:00:00.000Z" })).due_at ?? null,
    ).toBeNull();
  });

  it("bills an upgrade at once on one invoice: the old plan to the day before, its usage to the upgrade", async () => {
    const { org, customer, plan, subscription } = await story({ plan: { amount_cents: 3_100 } });
    const pro = planView({ code: "pro", amount_cents: 6_200, pay_in_advance: true });
    h.peers.usage.set(subscription.svc_id, [
      { at: "2024-01-10T00:00:00.000Z", units: 2 },
      { at: "2024-01-16T13:00:00.000Z", units: 5 },
    ]);
    const at = "2024-01-16T12:00:00.000Z";
    const successor = subscriptionView(customer, pro, {
      external_id: subscription.external_id,
      started_at: at,
      previous_plan_code: plan.code,
    });
    // the catalog's two events, published together (the consumer may see them in either order)
    await Promise.all([
      h.publishSubscription(
        S.subscriptionTerminated,
        org,
        { subscription: { ...subscription, status: "terminated", terminated_at: at, next_plan_code: "pro" }, plan },
        at,
      ),
      h.publishSubscription(S.subscriptionStarted, org, { subscription: successor, plan: pro }, at),
    ]);
    const [invoice] = await eventually(async () => {
      const l = await invoicesOf(org);
      return l.length ? l : null;
    }, "upgrade invoice");
    expect(invoice!.billing_periods.map((p) => [p.svc_subscription_id, p.invoicing_reason])).toEqual(
      expect.arrayContaining([
        [subscription.svc_id, "subscription_terminating"],
        [successor.svc_id, "subscription_starting"],
      ]),
    );
    // Basic: Jan 1–15 = 15 × 100 = 1500, usage to the upgrade instant 2 × 50 = 100; Pro from Jan 16: 16 × 200 = 3200
    expect(
      invoice!.fees.map((f) => [
        f.item!.type,
        f.svc_subscription_id === successor.svc_id ? "pro" : "basic",
        f.amount_cents,
      ]),
    ).toEqual([
      ["subscription", "basic", 1_500],
      ["charge", "basic", 100],
      ["subscription", "pro", 3_200],
    ]);
    expect(await invoicesOf(org)).toHaveLength(1);
  });

  it("bills an upgrade to an arrears plan at once: the old plan's termination alone, the new plan at its boundary", async () => {
    const { org, customer, plan, subscription } = await story({ plan: { amount_cents: 3_100 } });
    const pro = planView({ code: "pro", amount_cents: 6_200 });
    const at = "2024-01-16T12:00:00.000Z";
    const successor = subscriptionView(customer, pro, {
      external_id: subscription.external_id,
      started_at: at,
      previous_plan_code: plan.code,
    });
    // here the successor's event comes first
    await h.publishSubscription(S.subscriptionStarted, org, { subscription: successor, plan: pro }, at);
    await h.caughtUp();
    await h.publishSubscription(
      S.subscriptionTerminated,
      org,
      { subscription: { ...subscription, status: "terminated", terminated_at: at, next_plan_code: "pro" }, plan },
      at,
    );
    const [invoice] = await eventually(async () => {
      const l = await invoicesOf(org);
      return l.length ? l : null;
    }, "upgrade invoice");
    expect(invoice!.billing_periods.map((p) => [p.svc_subscription_id, p.invoicing_reason])).toEqual([
      [subscription.svc_id, "subscription_terminating"],
    ]);
    expect(invoice!.fees_amount_cents).toBe(1_500);
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const february = (await invoicesOf(org)).find((i) => i.issuing_date === "2024-02-01")!;
    // Pro from the upgrade day: Jan 16–31 = 16 × 6200 / 31 = 3200 (no usage since)
    expect(february.fees.map((f) => [f.item!.type, f.amount_cents, f.from_date])).toEqual([
      ["subscription", 3_200, "2024-01-16T00:00:00.000Z"],
    ]);
  });

  it("bills every subscription of a customer due at one boundary on ONE invoice", async () => {
    const { org, customer, plan } = await story();
    const second = subscriptionView(customer, plan, { external_id: "second" });
    await h.publishSubscription(S.subscriptionStarted, org, { subscription: second, plan }, "2024-01-01T00:00:00.000Z");
    await h.caughtUp();
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const invoices = await invoicesOf(org);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.billing_periods).toHaveLength(2);
    expect(invoices[0]!.fees_amount_cents).toBe(20_000);
  });

  it("reads current usage of the running period and past usage of the billed ones", async () => {
    const { org, customer, subscription } = await story();
    h.peers.usage.set(subscription.svc_id, [
      { at: "2024-01-03T00:00:00.000Z", units: 2 },
      { at: "2024-02-03T00:00:00.000Z", units: 6 },
    ]);
    await runDue(org, "2024-02-01T00:00:00.000Z");
    h.clock.set("2024-02-10T00:00:00.000Z");
    const calls = h.peers.chargeUsageCalls.length;
    const current = await h.invoicing.call("GetCurrentUsage", {
      organization_id: org,
      external_customer_id: customer.external_id,
      external_subscription_id: subscription.external_id,
    });
    expect(h.peers.chargeUsageCalls.slice(calls)).toEqual([{ periods: 1, consistent: false }]);
    expect(current.customer_usage).toMatchObject({
      from_datetime: "2024-02-01T00:00:00.000Z",
      to_datetime: "2024-02-29T23:59:59.999Z",
      issuing_date: "2024-03-01",
      currency: "EUR",
      amount_cents: 300,
      taxes_amount_cents: 0,
      total_amount_cents: 300,
    });
    expect(current.customer_usage!.charges_usage[0]).toMatchObject({
      units: "6.0",
      events_count: 1,
      amount_cents: 300,
      billable_metric: { code: "calls" },
    });
    const past = await h.invoicing.call("GetPastUsage", {
      organization_id: org,
      external_customer_id: customer.external_id,
      external_subscription_id: subscription.external_id,
      page: { page: 1, per_page: 10 },
    });
    expect(past.usage_periods.map((p) => [p.from_datetime, p.amount_cents, !!p.svc_invoice_id])).toEqual([
      ["2024-01-01T00:00:00.000Z", 100, true],
    ]);
    expect(past.meta).toMatchObject({ total_count: 1 });
  });
});

describe("grace period, finalization and numbering", () => {
  it("keeps a draft during the grace period, then finalizes it with its number at the grace period's end", async () => {
    const { org, subscription } = await story({
      customer: {
        billing_configuration: {
          invoice_grace_period: 3,
          subscription_invoice_issuing_date_anchor: null,
          subscription_invoice_issuing_date_adjustment: null,
        },
      },
    });
    h.peers.usage.set(subscription.svc_id, [{ at: "2024-01-10T00:00:00.000Z", units: 2 }]);
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const [draft] = await invoicesOf(org);
    expect(draft).toMatchObject({
      status: "draft",
      number: "ACM-4C1D-DRAFT",
      fees_amount_cents: 10_100,
      issuing_date: "2024-02-04",
      expected_finalization_date: "2024-02-04",
    });
    expect(draft!.sequential_id ?? null).toBeNull();
    // a late event counts: the draft is refreshed when it is finalized
    h.peers.usage.set(subscription.svc_id, [
      { at: "2024-01-10T00:00:00.000Z", units: 2 },
      { at: "2024-01-31T23:00:00.000Z", units: 2 },
    ]);
    expect(
      (await h.scheduled.call("NextDue", { organization_id: org, after: "2024-02-01T00:00:00.000Z" })).due_at,
    ).toBe("2024-02-04T00:00:00.000Z");
    await runDue(org, "2024-02-04T00:00:00.000Z");
    const [final] = await invoicesOf(org);
    expect(final).toMatchObject({
      svc_id: draft!.svc_id,
      status: "finalized",
      number: "ACM-4C1D-001-001",
      fees_amount_cents: 10_200,
      sequential_id: 1,
    });
    expect(final!.expected_finalization_date ?? null).toBeNull();
  });

  it("finalizes a draft on request once; a second finalization is invoice_not_found", async () => {
    const { org } = await story({
      customer: {
        billing_configuration: {
          invoice_grace_period: 5,
          subscription_invoice_issuing_date_anchor: null,
          subscription_invoice_issuing_date_adjustment: null,
        },
      },
    });
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const [draft] = await invoicesOf(org);
    const finalized = await h.invoicing.call("FinalizeInvoice", { organization_id: org, id: draft!.svc_id });
    expect(finalized.invoice).toMatchObject({ status: "finalized", number: "ACM-4C1D-001-001" });
    await expect(
      h.invoicing.call("FinalizeInvoice", { organization_id: org, id: draft!.svc_id }),
    ).rejects.toMatchObject({ kind: "not_found", code: "invoice_not_found" });
    await expect(h.invoicing.call("FinalizeInvoice", { organization_id: org, id: randomUUID() })).rejects.toMatchObject(
      { code: "invoice_not_found" },
    );
    // its grace period's end finds nothing left to do
    expect((await runDue(org, "2024-02-06T00:00:00.000Z")).done).toBe(0);
  });

  it("numbers 20 invoices finalized concurrently gap-free and unique (per organization numbering)", async () => {
    const org = randomUUID();
    h.peers.entities.set(`${org}|default`, { document_numbering: "per_organization" });
    const plan = planView();
    const grace = {
      invoice_grace_period: 10,
      subscription_invoice_issuing_date_anchor: null,
      subscription_invoice_issuing_date_adjustment: null,
    };
    for (let i = 0; i < 20; i++) {
      const customer = customerView({ sequential_id: i + 1, billing_configuration: grace });
      await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
      await h.publishSubscription(
        S.subscriptionStarted,
        org,
        { subscription: subscriptionView(customer, plan), plan },
        "2024-01-01T00:00:00.000Z",
      );
    }
    await h.caughtUp();
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const drafts = await invoicesOf(org);
    expect(drafts).toHaveLength(20);
    h.clock.set("2024-02-02T10:00:00.000Z"); // finalized in February: YYYYMM is the finalization month
    const finalized = await Promise.all(
      drafts.map((d) => h.invoicing.call("FinalizeInvoice", { organization_id: org, id: d.svc_id })),
    );
    const numbers = finalized.map((f) => f.invoice!.number).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `ACM-4C1D-202402-${String(i + 1).padStart(3, "0")}`));
  });
});

describe("organization isolation", () => {
  it("never shows or changes another organization's invoices or usage", async () => {
    const { org, customer, subscription } = await story();
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const [invoice] = await invoicesOf(org);
    const other = randomUUID();
    expect(await invoicesOf(other)).toHaveLength(0);
    await expect(h.invoicing.call("GetInvoice", { organization_id: other, id: invoice!.svc_id })).rejects.toMatchObject(
      { code: "invoice_not_found" },
    );
    await expect(
      h.invoicing.call("FinalizeInvoice", { organization_id: other, id: invoice!.svc_id }),
    ).rejects.toMatchObject({ code: "invoice_not_found" });
    await expect(
      h.invoicing.call("RefreshInvoice", { organization_id: other, id: invoice!.svc_id }),
    ).rejects.toMatchObject({ code: "invoice_not_found" });
    await expect(
      h.invoicing.call("UpdateInvoice", { organization_id: other, id: invoice!.svc_id, payment_status: "succeeded" }),
    ).rejects.toMatchObject({ code: "invoice_not_found" });
    await expect(
      h.invoicing.call("GetCurrentUsage", {
        organization_id: other,
        external_customer_id: customer.external_id,
        external_subscription_id: subscription.external_id,
      }),
    ).rejects.toMatchObject({ code: "customer_not_found" });
    await expect(
      h.invoicing.call("GetPastUsage", {
        organization_id: other,
        external_customer_id: customer.external_id,
        external_subscription_id: subscription.external_id,
      }),
    ).rejects.toMatchObject({ code: "customer_not_found" });
    // and the owner's invoice is untouched
    expect((await h.invoicing.call("GetInvoice", { organization_id: org, id: invoice!.svc_id })).invoice).toMatchObject(
      { payment_status: "pending", status: "finalized" },
    );
  });
});

describe("invoice updates", () => {
  it("changes a finalized invoice's payment status and metadata, never its amounts", async () => {
    const { org } = await story();
    await runDue(org, "2024-02-01T00:00:00.000Z");
    const [invoice] = await invoicesOf(org);
    const updated = await h.invoicing.call("UpdateInvoice", {
      organization_id: org,
      id: invoice!.svc_id,
      payment_status: "succeeded",
      update_metadata: true,
      metadata: [{ key: "po", value: "PO-1" }],
    });
    expect(updated.invoice).toMatchObject({
      payment_status: "succeeded",
      total_amount_cents: invoice!.total_amount_cents,
      number: invoice!.number,
    });
    expect(updated.invoice!.metadata.map((m) => [m.key, m.value])).toEqual([["po", "PO-1"]]);
    const kept = await h.invoicing.call("UpdateInvoice", {
      organization_id: org,
      id: invoice!.svc_id,
      update_metadata: true,
      metadata: [{ id: updated.invoice!.metadata[0]!.svc_id, key: "po", value: "PO-2" }],
    });
    expect(kept.invoice!.metadata).toEqual([
      expect.objectContaining({ svc_id: updated.invoice!.metadata[0]!.svc_id, value: "PO-2" }),
    ]);
    expect(kept.invoice!.payment_status).toBe("succeeded");
  });
});

describe("events and lists", () => {
  it("announces an invoice when it is drafted and when it is finalized, then each of its fees (embedded outbox)", async () => {
    const grace = {
      invoice_grace_period: 2,
      subscription_invoice_issuing_date_anchor: null,
      subscription_invoice_issuing_date_adjustment: null,
    };
    const { org, subscription } = await story({ customer: { billing_configuration: grace } });
    h.peers.usage.set(subscription.svc_id, [{ at: "2024-01-10T00:00:00.000Z", units: 1 }]);
    const I = Subjects.invoicing;
    const collect = <S extends Subject>(subject: S) => collectEvents<Envelope<EventData<S>>>(h.bus.nc, subject, org);
    const [created, drafted, finalized, fees] = [
      collect(I.invoiceCreated),
      collect(I.invoiceDrafted),
      collect(I.invoiceFinalized),
      collect(I.feeCreated),
    ];
    await runDue(org, "2024-02-01T00:00:00.000Z");
    await eventually(() => created!.received.length === 1 && drafted!.received.length === 1, "created and drafted");
    expect(drafted!.received[0]!.data.invoice).toMatchObject({
      status: "draft",
      number: "ACM-4C1D-DRAFT",
      fees_amount_cents: 10_050,
    });
    expect(finalized!.received).toHaveLength(0);
    await runDue(org, "2024-02-03T00:00:00.000Z");
    await eventually(() => finalized!.received.length === 1 && fees!.received.length === 2, "finalized and its fees");
    const invoice = finalized!.received[0]!.data.invoice;
    expect(invoice).toMatchObject({
      status: "finalized",
      number: "ACM-4C1D-001-001",
      total_amount_cents: 10_050,
      fees_count: 2,
      subscription_ids: [subscription.svc_id],
    });
    expect(
      fees!.received.map((e) => [e.data.fee.fee_type, e.data.fee.amount_cents, e.data.fee.svc_invoice_id]),
    ).toEqual(
      expect.arrayContaining([
        ["subscription", 10_000, invoice.svc_id],
        ["charge", 50, invoice.svc_id],
      ]),
    );
    expect(created!.received).toHaveLength(1); // created once: when drafted
    for (const c of [created, drafted, finalized, fees]) c!.stop();
  });

  it("lists invoices newest first, filtered by customer, status, payment status, type and issuing dates", async () => {
    const grace = {
      invoice_grace_period: 3,
      subscription_invoice_issuing_date_anchor: null,
      subscription_invoice_issuing_date_adjustment: null,
    };
    const { org, customer } = await story();
    const other = customerView({ external_id: "graced", billing_configuration: grace });
    const plan = planView();
    await h.publishCustomer(org, other, "2024-01-01T00:00:00.000Z");
    await h.publishSubscription(
      S.subscriptionStarted,
      org,
      { subscription: subscriptionView(other, plan), plan },
      "2024-01-01T00:00:00.000Z",
    );
    await h.caughtUp();
    await runDue(org, "2024-03-01T00:00:00.000Z"); // Feb 1 and Mar 1 for both: acme's finalized, graced's drafts (the first one finalized on Feb 4)
    const list = (filter: Record<string, unknown>) =>
      h.invoicing
        .call("ListInvoices", { organization_id: org, page: { page: 1, per_page: 2 }, ...filter })
        .then((r) => [r.invoices.map((i) => [i.customer!.external_id, i.status, i.issuing_date]), r.meta]);
    const [all, meta] = await list({});
    expect(meta).toMatchObject({ current_page: 1, total_pages: 2, total_count: 4, next_page: 2 });
    expect(all).toHaveLength(2);
    expect((await list({ external_customer_id: customer.external_id }))[0]).toEqual([
      [customer.external_id, "finalized", "2024-03-01"],
      [customer.external_id, "finalized", "2024-02-01"],
    ]);
    expect((await list({ status: "draft" }))[0]).toEqual([["graced", "draft", "2024-03-04"]]);
    expect((await list({ statuses: ["draft", "finalized"], external_customer_id: "graced" }))[1]).toMatchObject({
      total_count: 2,
    });
    expect((await list({ payment_status: "succeeded" }))[1]).toMatchObject({ total_count: 0 });
    expect(
      (await list({ invoice_type: "subscription", issuing_date_from: "2024-02-02", issuing_date_to: "2024-03-02" }))[0],
    ).toEqual([
      [customer.external_id, "finalized", "2024-03-01"],
      ["graced", "finalized", "2024-02-04"],
    ]);
  });
});
