import { connect } from "nats";
import { describe, expect, it } from "vitest";
import { Subjects, type Envelope } from "@billing/bus";
import { collectEvents, waitFor } from "@billing/testkit";
import { advanceClock, awaitReady, clockOf, scenarioPlatform } from "../../support/sandbox";
import {
  customer,
  events,
  instant,
  invoicesOf,
  metric,
  numberPrefix,
  ok,
  plan,
  send,
  standard,
  subscribe,
} from "../../support/scenario";

// Test clocks (beyond Lago; Stripe's test clocks are the model) and the isolation of organizations
// on every endpoint issue 11 brings.
const platform = scenarioPlatform("scn_test_clock");

const notFound = (code: string) => ({ status: 404, body: { status: 404, error: "Not Found", code } });

describe("test clocks", () => {
  it("keeps a sandbox organization's time still until it is advanced, and dates what it creates with it", async () => {
    const { as } = await platform.sandbox("Frozen", "2024-01-01T00:00:00Z");
    expect(await clockOf(as)).toEqual({ frozen_time: expect.any(String), status: "ready" });
    expect(instant((await clockOf(as)).frozen_time)).toBe("2024-01-01T00:00:00.000Z");
    const first = await customer(as, "c1");
    expect(instant(first.created_at)).toBe("2024-01-01T00:00:00.000Z");
    await plan(as, "basic", { amount_cents: 1_000 });
    const sub = await subscribe(as, "c1", "basic", "sub_1");
    expect(instant(sub.started_at)).toBe("2024-01-01T00:00:00.000Z"); // a subscription starts at the clock's time
    await advanceClock(as, "2024-01-10T12:00:00Z");
    const later = await customer(as, "c2");
    expect(instant(later.created_at)).toBe("2024-01-10T12:00:00.000Z");
  });

  it("refuses a time not after the current one, and answers test_clock_not_found to an ordinary organization", async () => {
    const { as } = await platform.sandbox("Refusals", "2024-01-01T00:00:00Z");
    for (const to of ["2023-12-31T00:00:00Z", "2024-01-01T00:00:00Z", "not a date"]) {
      const refused = await as("POST", "/test_clock/advance", { test_clock: { frozen_time: to } });
      expect(refused, to).toMatchObject({
        status: 422,
        body: {
          status: 422,
          error: "Unprocessable Entity",
          code: "validation_errors",
          error_details: { frozen_time: [expect.any(String)] },
        },
      });
    }
    expect(instant((await clockOf(as)).frozen_time)).toBe("2024-01-01T00:00:00.000Z"); // not moved
    const { as: ordinary } = await platform.organization("Ordinary");
    expect(await ordinary("GET", "/test_clock")).toMatchObject(notFound("test_clock_not_found"));
    expect(
      await ordinary("POST", "/test_clock/advance", { test_clock: { frozen_time: "2030-01-01T00:00:00Z" } }),
    ).toMatchObject(notFound("test_clock_not_found"));
  });

  it("answers at once while advancing, refuses a second advance meanwhile, and yields every boundary's invoice", async () => {
    // Jan 1 2024: a 10.00 monthly plan with calls at 1.00, one call a month; the clock is asked to jump
    // a whole year (12 boundaries) in one call.
    const { as } = await platform.sandbox("Advancing", "2024-01-01T00:00:00Z");
    await customer(as, "acme");
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 1_000, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "basic", "sub_1");
    await send(
      as,
      Array.from({ length: 12 }, (_, m) =>
        events(1, "sub_1", "calls", new Date(Date.UTC(2024, m, 15)).toISOString()),
      ).flat(),
    );
    const started = await as("POST", "/test_clock/advance", { test_clock: { frozen_time: "2025-01-01T00:30:00Z" } });
    // the answer does not wait for the jump
    expect(started).toMatchObject({ status: 200, body: { test_clock: { status: "advancing" } } });
    const again = await as("POST", "/test_clock/advance", { test_clock: { frozen_time: "2025-06-01T00:00:00Z" } });
    expect(again).toMatchObject({
      status: 422,
      body: { status: 422, error: "Unprocessable Entity", code: "test_clock_advancing" },
    });
    const clock = await awaitReady(as, 120_000);
    expect(instant(clock.frozen_time)).toBe("2025-01-01T00:30:00.000Z");
    const invoices = await invoicesOf(as, "acme");
    const prefix = await numberPrefix(as);
    // one invoice per month boundary, Feb 1 2024 … Jan 1 2025, each 1000 + one call (100), numbered in order
    expect(invoices.map((i) => [i.issuing_date, i.fees_amount_cents, i.number])).toEqual(
      Array.from({ length: 12 }, (_, m) => [
        new Date(Date.UTC(2024, m + 1, 1)).toISOString().slice(0, 10),
        1_100,
        `${prefix}-001-${String(m + 1).padStart(3, "0")}`,
      ]),
    );
  }, 150_000);

  it("announces an unpaid invoice overdue once, when the clock passes its due date (billing.invoicing.invoice.payment_overdue)", async () => {
    // acme has 5 days to pay: the Feb 1 invoice is due Feb 6, overdue from Feb 7 00:00
    const { organization_id, as } = await platform.sandbox("Overdue", "2024-01-01T00:00:00Z");
    await customer(as, "acme", { net_payment_term: 5 });
    await plan(as, "basic", { amount_cents: 1_000 });
    await subscribe(as, "acme", "basic", "sub_1");
    const nc = await connect({ servers: platform.natsUrl() });
    const overdue = collectEvents<Envelope & { data: { invoice: Record<string, unknown> } }>(
      nc,
      Subjects.invoicing.invoicePaymentOverdue,
      organization_id,
    );
    try {
      await advanceClock(as, "2024-02-06T12:00:00Z");
      const [invoice] = await invoicesOf(as, "acme");
      expect(invoice).toMatchObject({ status: "finalized", payment_due_date: "2024-02-06", payment_overdue: false });
      await new Promise((r) => setTimeout(r, 500));
      expect(overdue.received).toEqual([]);
      // a jump past the due date: the clock stops at Feb 7 00:00 on its way, and the invoice is announced then, once
      await advanceClock(as, "2024-02-20T00:00:00Z");
      await waitFor(() => overdue.received.length > 0, { timeoutMs: 10_000, what: "payment_overdue" });
      expect(overdue.received).toEqual([
        expect.objectContaining({
          organization_id,
          occurred_at: "2024-02-07T00:00:00.000Z",
          frozen_time: "2024-02-07T00:00:00.000Z",
          data: {
            invoice: expect.objectContaining({
              svc_id: invoice!.svc_id,
              payment_status: "pending",
              payment_due_date: "2024-02-06",
            }),
          },
        }),
      ]);
      // the next month's invoice is paid before its due date: never announced; February's is not announced again
      await advanceClock(as, "2024-03-01T00:30:00Z");
      const march = (await invoicesOf(as, "acme")).find((i) => i.issuing_date === "2024-03-01")!;
      await ok(as("PUT", `/invoices/${march.svc_id}`, { invoice: { payment_status: "succeeded" } }));
      await advanceClock(as, "2024-03-20T00:00:00Z");
      await new Promise((r) => setTimeout(r, 500));
      expect(overdue.received.map((e) => e.data.invoice.svc_id)).toEqual([invoice!.svc_id]);
    } finally {
      overdue.stop();
      await nc.close();
    }
  }, 120_000);
});

describe("isolation between organizations", () => {
  it("never shows, changes, finalizes or refreshes another organization's invoices, usage or clock", async () => {
    // Organization A: acme (2-day grace) on a 10.00 monthly plan with calls at 0.50, 4 calls in January;
    // on Feb 1, A has a draft invoice. Organization B, a sandbox of its own, knows nothing of it.
    const { as: a } = await platform.sandbox("Org A", "2024-01-01T00:00:00Z");
    const { as: b } = await platform.sandbox("Org B", "2024-01-01T00:00:00Z");
    await customer(a, "acme", { billing_configuration: { invoice_grace_period: 2 } });
    const calls = await metric(a, "calls");
    await plan(a, "basic", { amount_cents: 1_000, charges: [standard(calls, "0.5")] });
    await subscribe(a, "acme", "basic", "sub_1");
    await send(a, events(4, "sub_1", "calls", "2024-01-10T00:00:00Z"));
    await advanceClock(a, "2024-02-01T00:30:00Z");
    const [invoice] = await invoicesOf(a, "acme");
    expect(invoice).toMatchObject({ status: "draft", fees_amount_cents: 1_200 });
    const id = invoice!.svc_id as string;

    // B sees no invoice, and A's invoice is unknown to B on every route
    expect((await ok(b("GET", "/invoices"))).invoices).toEqual([]);
    expect((await ok(b("GET", "/invoices?external_customer_id=acme"))).invoices).toEqual([]);
    expect(await b("GET", `/invoices/${id}`)).toMatchObject(notFound("invoice_not_found"));
    expect(
      await b("PUT", `/invoices/${id}`, { invoice: { metadata: [{ key: "stolen", value: "yes" }] } }),
    ).toMatchObject(notFound("invoice_not_found"));
    expect(await b("PUT", `/invoices/${id}/finalize`)).toMatchObject(notFound("invoice_not_found"));
    expect(await b("PUT", `/invoices/${id}/refresh`, {})).toMatchObject(notFound("invoice_not_found"));
    // nor A's customer's usage
    expect(await b("GET", "/customers/acme/current_usage?external_subscription_id=sub_1")).toMatchObject(
      notFound("customer_not_found"),
    );
    expect(await b("GET", "/customers/acme/past_usage?external_subscription_id=sub_1")).toMatchObject(
      notFound("customer_not_found"),
    );
    // each organization has its own clock: A's advance did not move B's, B's does not move A's
    expect(instant((await clockOf(b)).frozen_time)).toBe("2024-01-01T00:00:00.000Z");
    await advanceClock(b, "2024-01-05T00:00:00Z");
    expect(instant((await clockOf(a)).frozen_time)).toBe("2024-02-01T00:30:00.000Z");

    // A's invoice is untouched: still a draft, no metadata, same amounts
    const [after] = await invoicesOf(a, "acme");
    expect(after).toMatchObject({ svc_id: id, status: "draft", fees_amount_cents: 1_200, metadata: [] });
  });
});
