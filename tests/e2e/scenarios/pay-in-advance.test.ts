import { waitFor } from "@billing/testkit";
import { describe, expect, it } from "vitest";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  awaitInvoices,
  event,
  expectTotals,
  feeOf,
  feesOf,
  invoicesOf,
  metric,
  ok,
  plan,
  reasons,
  send,
  span,
  standard,
  subscribe,
  tax,
  type Api,
  type Json,
} from "../../support/scenario";

// Pay-in-advance charges (billing-rules §1.11–1.12) on sandbox organizations: every event on a
// pay-in-advance charge creates its fee at once (GET /fees), with Lago's numbers from
// spec/scenarios/pay_in_advance_charges_spec.rb and spec/scenarios/invoices/advance_charges_spec.rb.
const platform = scenarioPlatform("scn_advance");

/** Waits (bounded) until the subscription has `count` fees; answers them oldest first, each as GET /fees/{id} shows it. */
async function awaitFees(as: Api, externalSubscriptionId: string, count: number, timeoutMs = 20_000): Promise<Json[]> {
  const deadline = Date.now() + timeoutMs;
  let fees: Json[] = [];
  for (;;) {
    fees = (
      await ok(as("GET", `/fees?external_subscription_id=${encodeURIComponent(externalSubscriptionId)}&per_page=100`))
    ).fees as Json[];
    if (fees.length >= count || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(fees, `${externalSubscriptionId}'s fees after ${timeoutMs} ms`).toHaveLength(count);
  const oldestFirst = [...fees].sort(
    (a, b) =>
      String(a.created_at).localeCompare(String(b.created_at)) ||
      String(a.event_transaction_id).localeCompare(String(b.event_transaction_id)),
  );
  const read: Json[] = [];
  for (const fee of oldestFirst) {
    const one = await ok(as("GET", `/fees/${fee.svc_id}`));
    expect(one.fee).toEqual(fee);
    read.push(one.fee as Json);
  }
  return read;
}

/** Sends one event and waits for the subscription's fee count to reach `count`: the newest fee. */
async function sendAndAwait(as: Api, e: Json, count: number): Promise<Json> {
  await send(as, [e]);
  const fees = await awaitFees(as, e.external_subscription_id as string, count);
  const fee = fees.find((f) => f.event_transaction_id === e.transaction_id);
  expect(fee, `the fee of ${e.transaction_id}`).toBeDefined();
  return fee!;
}

describe("pay-in-advance charges", () => {
  it("bills each seat once per period when it first raises the count, never a removal nor a seat already paid for (unique_count, not invoiceable)", async () => {
    // Lago's "with unique_count_agg / standard": 12.00 per seat, invoiceable false, the subscription from Jan 24 2023.
    const as = await platform.story("Seats", "2023-01-24T00:00:00Z");
    const seats = await metric(as, "seats", { aggregation_type: "unique_count_agg", field_name: "unique_id" });
    await plan(as, "team", {
      amount_cents: 1_000,
      charges: [standard(seats, "12", { pay_in_advance: true, invoiceable: false })],
    });
    await subscribe(as, "acme", "team", "sub_1");

    const story: Array<[string, Json, number, string]> = [
      ["2023-02-15T00:00:00Z", { unique_id: "id_1" }, 1_200, "1.0"],
      ["2023-02-16T00:00:00Z", { unique_id: "id_1", operation_type: "remove" }, 0, "0.0"],
      // id_1 again: units applied without raising the period's maximum, nothing to pay
      ["2023-02-17T00:00:00Z", { unique_id: "id_1" }, 0, "1.0"],
      ["2023-02-18T00:00:00Z", { unique_id: "id_2" }, 1_200, "1.0"],
      ["2023-02-19T00:00:00Z", { unique_id: "id_2" }, 0, "0.0"],
      ["2023-02-20T00:00:00Z", { unique_id: "id_3" }, 1_200, "1.0"],
      ["2023-02-21T00:00:00Z", { unique_id: "id_3", operation_type: "remove" }, 0, "0.0"],
    ];
    const fees: Json[] = [];
    for (const [i, [at, properties, cents, units]] of story.entries()) {
      const fee = await sendAndAwait(as, event("sub_1", "seats", at, properties), i + 1);
      expect(fee, at).toMatchObject({
        svc_invoice_id: null,
        pay_in_advance: true,
        invoiceable: false,
        amount_cents: cents,
        units,
        events_count: 1,
        amount_details: {},
        payment_status: "pending",
        amount_currency: "EUR",
        item: { type: "charge", code: "seats", item_type: "BillableMetric" },
        external_subscription_id: "sub_1",
        external_customer_id: "acme",
      });
      // the charges period of the event: February 2023
      expect(span(fee.from_date, fee.to_date)).toEqual(["2023-02-01T00:00:00.000Z", "2023-02-28T23:59:59.999Z"]);
      fees.push(fee);
    }
    const plans = (await ok(as("GET", "/plans/team"))).plan as Json;
    expect(new Set(fees.map((f) => f.svc_charge_id))).toEqual(new Set([plans.charges[0].svc_id]));

    // filters: payment status, metric, fee type
    const [first, second] = fees;
    const paid = await ok(as("PUT", `/fees/${first!.svc_id}`, { fee: { payment_status: "succeeded" } }));
    expect(paid.fee).toMatchObject({
      svc_id: first!.svc_id,
      payment_status: "succeeded",
      failed_at: null,
      refunded_at: null,
    });
    expect(paid.fee.succeeded_at).not.toBeNull();
    const succeeded = await ok(as("GET", "/fees?payment_status=succeeded"));
    expect((succeeded.fees as Json[]).map((f) => f.svc_id)).toEqual([first!.svc_id]);
    expect((await ok(as("GET", "/fees?billable_metric_code=seats&per_page=3"))).meta as Json).toMatchObject({
      total_count: 7,
      total_pages: 3,
    });
    expect((await ok(as("GET", "/fees?fee_type=subscription"))).fees).toEqual([]);
    const wrong = await as("PUT", `/fees/${first!.svc_id}`, { fee: { payment_status: "paid" } });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      code: "validation_errors",
      error_details: { payment_status: ["value_is_invalid"] },
    });

    // a waiting fee can be deleted; it is then gone
    const deleted = await ok(as("DELETE", `/fees/${second!.svc_id}`));
    expect(deleted.fee.svc_id).toBe(second!.svc_id);
    const gone = await as("GET", `/fees/${second!.svc_id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ status: 404, error: "Not Found", code: "fee_not_found" });
    expect((await ok(as("GET", "/fees?external_subscription_id=sub_1"))).fees as Json[]).toHaveLength(6);

    // March 1: February's invoice has the base fee only. A not-invoiceable charge's fees never go on a
    // periodic invoice (Lago); without regroup_paid_fees they are never invoiced at all, paid or not
    // (regrouped ones: tests/e2e/scenarios/advance-charges.test.ts)
    await advanceClock(as, "2023-03-01T01:00:00Z");
    const [january, february, ...more] = await invoicesOf(as, "acme");
    expect(more).toHaveLength(0);
    expect(feesOf(january!, "charge")).toEqual([]);
    expect(feesOf(february!, "charge")).toEqual([]);
    expectTotals(february!, { fees: 1_000 });
    expect((await ok(as("GET", `/fees/${first!.svc_id}`))).fee).toMatchObject({
      svc_invoice_id: null,
      amount_cents: 1_200,
      payment_status: "succeeded",
    });

    // another organization sees none of them
    const other = await platform.story("Seats, elsewhere", "2023-01-24T00:00:00Z");
    expect((await other("GET", `/fees/${first!.svc_id}`)).status).toBe(404);
    expect((await ok(other("GET", "/fees"))).fees).toEqual([]);
  });

  it("bills a seat added mid-period for the days left, keeps what was paid when it leaves (prorated, recurring unique_count)", async () => {
    // Lago's advance_charges_spec: cards at 30.12, prorated, pay in advance, not invoiceable; June 2024 has 30 days.
    const as = await platform.story("Prorated seats", "2024-06-05T10:00:00Z");
    const cards = await metric(as, "cards", {
      aggregation_type: "unique_count_agg",
      field_name: "item_id",
      recurring: true,
    });
    await plan(as, "cards_plan", {
      amount_cents: 49,
      pay_in_advance: true,
      charges: [standard(cards, "30.12", { pay_in_advance: true, invoiceable: false, prorated: true })],
    });
    await subscribe(as, "acme", "cards_plan", "sub_1");

    // the estimate of a first card now (June 5, the subscription's first day): 30.12 × 26 / 30 = 26.104 → 26.10, the fee it would create
    // (the usage service prices from its copy of the subscription, which arrives by event: wait for it)
    const estimateCard = () =>
      as("POST", "/events/estimate_fees", {
        event: { code: "cards", external_subscription_id: "sub_1", properties: { item_id: "card_0" } },
      });
    await waitFor(async () => (await estimateCard()).status !== 404, {
      what: "the usage service's copy of sub_1",
      timeoutMs: 20_000,
    });
    const estimate = await ok(estimateCard());
    expect(estimate.fees).toEqual([
      expect.objectContaining({ amount_cents: 2_610, units: "1.0", pay_in_advance: true }),
    ]);
    // card i on June 10 + i: 30.12 × (30 − 10 − (i − 1)) / 30
    const expected = [2_008, 1_908, 1_807, 1_707, 1_606];
    for (const [n, cents] of expected.entries()) {
      const i = n + 1;
      const fee = await sendAndAwait(
        as,
        event("sub_1", "cards", `2024-06-${10 + i}T10:00:00Z`, { item_id: `card_${i}` }),
        i,
      );
      expect(fee, `card_${i}`).toMatchObject({ amount_cents: cents, units: "1.0", svc_invoice_id: null });
    }
    // card_1 leaves on June 20: nothing is refunded; it comes back on June 25: already paid for this period
    const left = await sendAndAwait(
      as,
      event("sub_1", "cards", "2024-06-20T10:00:00Z", { item_id: "card_1", operation_type: "remove" }),
      6,
    );
    expect(left).toMatchObject({ amount_cents: 0, units: "0.0" });
    const back = await sendAndAwait(as, event("sub_1", "cards", "2024-06-25T10:00:00Z", { item_id: "card_1" }), 7);
    expect(back).toMatchObject({ amount_cents: 0 });
    // a sixth card on June 30 pays one day: 30.12 / 30 = 1.004 → 1.00
    const last = await sendAndAwait(as, event("sub_1", "cards", "2024-06-30T10:00:00Z", { item_id: "card_6" }), 8);
    expect(last).toMatchObject({ amount_cents: 100, units: "1.0" });
  });

  it("puts each fee of an invoiceable charge on its own finalized invoice, taxed, issued the event's day", async () => {
    // Lago's "with count_agg / standard": 10.00 per event, here invoiceable (and a 20 % tax on the customer).
    const as = await platform.story("Invoiceable", "2023-01-24T00:00:00Z", { tax_codes: [] });
    await tax(as, "vat", "20");
    await ok(
      as("POST", "/customers", {
        customer: { external_id: "acme", name: "acme", currency: "EUR", tax_codes: ["vat"] },
      }),
    );
    const calls = await metric(as, "calls");
    await plan(as, "api", { amount_cents: 1_000, charges: [standard(calls, "10", { pay_in_advance: true })] });
    await subscribe(as, "acme", "api", "sub_1");

    const feb15 = await sendAndAwait(as, event("sub_1", "calls", "2023-02-15T09:00:00Z"), 1);
    const feb17 = await sendAndAwait(as, event("sub_1", "calls", "2023-02-17T09:00:00Z"), 2);
    const invoices = await awaitInvoices(as, "acme", 2);
    for (const [fee, invoice, day] of [
      [feb15, invoices[0]!, "2023-02-15"],
      [feb17, invoices[1]!, "2023-02-17"],
    ] as const) {
      expect(invoice).toMatchObject({
        invoice_type: "subscription",
        status: "finalized",
        issuing_date: day,
        payment_status: "pending",
      });
      expect(reasons(invoice)).toEqual([["sub_1", "in_advance_charge"]]);
      expectTotals(invoice, { fees: 1_000, taxes: 200 });
      const onInvoice = feeOf(invoice, "charge", "calls");
      expect(onInvoice).toMatchObject({
        svc_id: fee.svc_id,
        amount_cents: 1_000,
        taxes_amount_cents: 200,
        total_amount_cents: 1_200,
        units: "1.0",
        events_count: 1,
        pay_in_advance: true,
      });
      expect(fee).toMatchObject({
        svc_invoice_id: invoice.svc_id,
        amount_cents: 1_000,
        taxes_amount_cents: 200,
        taxes_rate: 20,
        payment_status: "pending",
      });
    }
    expect(invoices[0]!.number).not.toBe(invoices[1]!.number);

    // an invoiced fee follows its invoice: neither its payment status nor the fee itself can be changed
    for (const [method, body] of [
      ["PUT", { fee: { payment_status: "succeeded" } }],
      ["DELETE", undefined],
    ] as const) {
      const refused = await as(method, `/fees/${feb15.svc_id}`, body);
      expect(refused.status).toBe(405);
      expect(refused.body).toMatchObject({ status: 405, error: "Method Not Allowed", code: "invoiced_fee" });
    }
  });
});
