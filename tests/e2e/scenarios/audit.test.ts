import { describe, expect, it } from "vitest";
import { waitFor } from "@billing/testkit";
import { advanceClock, scenarioPlatform } from "../../support/sandbox";
import {
  event,
  events,
  feeOf,
  invoicesOf,
  metric,
  ok,
  plan,
  send,
  standard,
  subscribe,
  type Api,
  type Json,
} from "../../support/scenario";

// Invoices that prove themselves: GET /invoices/{id}/audit re-derives every charge fee of a
// finalized invoice from the raw events stored for its period and the charge snapshot it was
// priced from. acme (EUR, UTC) subscribes on Jan 1 2024 to a monthly calendar plan in arrears
// (10.00 base fee), uses it in January, and the clock moves to Feb 1 00:30, when January is billed.
const platform = scenarioPlatform("scn_audit");

async function januaryInvoice(as: Api): Promise<Json> {
  await advanceClock(as, "2024-02-01T00:30:00Z");
  const [invoice, ...more] = await invoicesOf(as, "acme");
  expect(more).toHaveLength(0);
  return invoice!;
}

const auditOf = async (as: Api, invoice: Json): Promise<Json> =>
  (await ok(as("GET", `/invoices/${invoice.svc_id}/audit`))).invoice_audit as Json;

describe("invoice audit", () => {
  it("re-derives every charge fee from the raw events: graduated, filtered and grouped fees all match", async () => {
    const as = await platform.story("Audit match", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    const storage = await metric(as, "storage", {
      aggregation_type: "sum_agg",
      field_name: "gb",
      filters: [{ key: "region", values: ["eu", "us"] }],
    });
    const seats = await metric(as, "seats", { aggregation_type: "unique_count_agg", field_name: "user" });
    await plan(as, "pro", {
      amount_cents: 1_000,
      charges: [
        {
          billable_metric_id: calls,
          charge_model: "graduated",
          properties: {
            graduated_ranges: [
              { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "2" },
              { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "3" },
            ],
          },
        },
        standard(storage, "0.1", {
          filters: [
            { invoice_display_name: "EU", properties: { amount: "0.2" }, values: { region: ["eu"] } },
            { invoice_display_name: "US", properties: { amount: "0.3" }, values: { region: ["us"] } },
          ],
        }),
        standard(seats, "2", { properties: { amount: "2", grouped_by: ["team"] } }),
      ],
    });
    await subscribe(as, "acme", "pro", "sub_1");
    await send(as, [
      ...events(15, "sub_1", "calls", "2024-01-10T00:00:00Z"),
      event("sub_1", "storage", "2024-01-03T00:00:00Z", { gb: 100, region: "eu" }),
      event("sub_1", "storage", "2024-01-04T00:00:00Z", { gb: 50, region: "us" }),
      event("sub_1", "storage", "2024-01-05T00:00:00Z", { gb: 10 }),
      event("sub_1", "seats", "2024-01-06T00:00:00Z", { user: "ann", team: "a" }),
      event("sub_1", "seats", "2024-01-07T00:00:00Z", { user: "bob", team: "a" }),
      event("sub_1", "seats", "2024-01-08T00:00:00Z", { user: "ann", team: "a" }),
      event("sub_1", "seats", "2024-01-09T00:00:00Z", { user: "cid", team: "b" }),
    ]);
    const invoice = await januaryInvoice(as);
    // calls: 10 × 1.00 + 2.00 + 5 × 0.50 + 3.00 = 17.50; storage: EU 100 × 0.20, US 50 × 0.30, other 10 × 0.10;
    // seats: team a 2 × 2.00, team b 1 × 2.00
    expect(feeOf(invoice, "charge", "calls")).toMatchObject({ amount_cents: 1_750, units: "15.0" });
    expect(invoice.fees_amount_cents).toBe(1_000 + 1_750 + 2_000 + 1_500 + 100 + 400 + 200);

    const audit = await auditOf(as, invoice);
    expect(audit).toMatchObject({
      svc_invoice_id: invoice.svc_id,
      number: invoice.number,
      status: "finalized",
      match: true,
      mismatches: [],
      late_events_count: 0,
    });
    expect(audit.fees_amount_cents).toEqual({
      invoiced: 1_750 + 2_000 + 1_500 + 100 + 400 + 200,
      recomputed: 1_750 + 2_000 + 1_500 + 100 + 400 + 200,
    });
    const derived = (audit.fees as Json[]).filter((f) => f.derivation === "raw_events");
    expect(derived).toHaveLength(6);
    for (const fee of derived) {
      expect(fee.match, JSON.stringify(fee)).toBe(true);
      expect(fee.recomputed).toEqual(fee.invoiced);
      expect(fee.billed_through).toBe("2024-02-01T00:00:00.000Z");
    }
    expect(derived.find((f) => f.billable_metric_code === "calls")).toMatchObject({
      charge_model: "graduated",
      invoiced: { units: "15.0", events_count: 15, amount_cents: 1_750 },
    });
    expect(
      derived.filter((f) => f.billable_metric_code === "seats").map((f) => [f.grouped_by, f.recomputed.amount_cents]),
    ).toEqual(
      expect.arrayContaining([
        [{ team: "a" }, 400],
        [{ team: "b" }, 200],
      ]),
    );
    expect((audit.fees as Json[]).find((f) => f.fee_type === "subscription")).toMatchObject({
      derivation: "not_derived_from_events",
      match: null,
      invoiced: { amount_cents: 1_000 },
    });
    expect((audit.charges as Json[]).map((c) => [c.billable_metric_code, c.raw_events_read])).toEqual(
      expect.arrayContaining([
        ["calls", 15],
        ["storage", 3],
        ["seats", 4],
      ]),
    );
  });

  it("reports an event acknowledged after the invoice for its period as late, not billed", async () => {
    const as = await platform.story("Audit late event", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 0, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "basic", "sub_1");
    await send(as, events(3, "sub_1", "calls", "2024-01-15T00:00:00Z"));
    const invoice = await januaryInvoice(as);
    expect(feeOf(invoice, "charge", "calls")).toMatchObject({ amount_cents: 300, units: "3.0" });

    await advanceClock(as, "2024-02-02T00:00:00Z");
    const late = event("sub_1", "calls", "2024-01-20T00:00:00Z");
    await send(as, [late]);
    // the invoice is final: the late event is not billed on it
    const [again] = await invoicesOf(as, "acme");
    expect(again!.fees_amount_cents).toBe(300);

    const audit = await auditOf(as, invoice);
    expect(audit).toMatchObject({ match: true, late_events_count: 1 });
    const [charge] = audit.charges as [Json]; // one charge on this invoice
    expect(charge).toMatchObject({
      billable_metric_code: "calls",
      raw_events_read: 4,
      late_events_count: 1,
      billed_through: "2024-02-01T00:00:00.000Z",
    });
    expect(charge.late_events).toHaveLength(1);
    expect(charge.late_events[0]).toMatchObject({
      transaction_id: late.transaction_id,
      timestamp: "2024-01-20T00:00:00.000Z",
      created_at: "2024-02-02T00:00:00.000Z",
    });
    expect((audit.fees as Json[]).find((f) => f.billable_metric_code === "calls")).toMatchObject({
      match: true,
      invoiced: { units: "3.0", amount_cents: 300 },
      recomputed: { units: "3.0", amount_cents: 300 },
    });
  });

  it("audits finalized invoices only (a draft: 405), and only the organization's own (another's: 404)", async () => {
    const as = await platform.story("Audit draft", "2024-01-01T00:00:00Z", {
      billing_configuration: { invoice_grace_period: 3 },
    });
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 0, charges: [standard(calls, "1")] });
    await subscribe(as, "acme", "basic", "sub_1");
    await send(as, events(2, "sub_1", "calls", "2024-01-15T00:00:00Z"));
    const draft = await januaryInvoice(as);
    expect(draft.status).toBe("draft");
    const refused = await as("GET", `/invoices/${draft.svc_id}/audit`);
    expect(refused.status).toBe(405);
    expect(refused.body).toMatchObject({ status: 405, code: "invoice_not_finalized" });

    const other = await platform.sandbox("Audit other organization", "2024-01-01T00:00:00Z");
    await ok(as("PUT", `/invoices/${draft.svc_id}/finalize`));
    expect((await auditOf(as, draft)).match).toBe(true);
    const foreign = await other.as("GET", `/invoices/${draft.svc_id}/audit`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ status: 404, code: "invoice_not_found" });
  });

  it("answers 404 for an unknown invoice", async () => {
    const as = await platform.story("Audit unknown", "2024-01-01T00:00:00Z");
    const reply = await as("GET", "/invoices/00000000-0000-0000-0000-000000000000/audit");
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ status: 404, code: "invoice_not_found" });
  });
});

describe("plan simulation", () => {
  it("prices the customer's past periods on another plan from its stored usage, beside what it was billed", async () => {
    // basic: 1.00 per call, no base fee. pro: 10.00 a month, calls graduated 0–10 at 0.50, 11 and up at 0.20.
    // January: 15 calls; February: 5 calls.
    const as = await platform.story("Simulate plan", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    await plan(as, "basic", { amount_cents: 0, charges: [standard(calls, "1")] });
    await plan(as, "pro", {
      amount_cents: 1_000,
      charges: [
        {
          billable_metric_id: calls,
          charge_model: "graduated",
          properties: {
            graduated_ranges: [
              { from_value: 0, to_value: 10, per_unit_amount: "0.5", flat_amount: "0" },
              { from_value: 11, to_value: null, per_unit_amount: "0.2", flat_amount: "0" },
            ],
          },
        },
      ],
    });
    await subscribe(as, "acme", "basic", "sub_1");
    await send(as, events(15, "sub_1", "calls", "2024-01-10T00:00:00Z"));
    await advanceClock(as, "2024-02-01T00:30:00Z");
    await send(as, events(5, "sub_1", "calls", "2024-02-10T00:00:00Z"));
    await advanceClock(as, "2024-03-01T00:30:00Z");
    const billed = await invoicesOf(as, "acme");
    expect(billed.map((i) => i.fees_amount_cents)).toEqual([1_500, 500]);

    const { plan_simulation: simulation } = await ok(as("POST", "/customers/acme/simulate_plan", { plan_code: "pro" }));
    // January on pro: 10.00 + 10 × 0.50 + 5 × 0.20 = 16.00; February: 10.00 + 5 × 0.50 = 12.50
    expect(simulation).toMatchObject({
      external_customer_id: "acme",
      plan_code: "pro",
      currency: "EUR",
      billed_fees_amount_cents: 2_000,
      simulated_fees_amount_cents: 2_850,
      difference_amount_cents: 850,
    });
    expect(
      (simulation.periods as Json[]).map((p) => [
        p.svc_invoice_id,
        p.billed_plan_code,
        p.from_datetime,
        p.billed_fees_amount_cents,
        p.simulated_fees_amount_cents,
        p.difference_amount_cents,
      ]),
    ).toEqual([
      [billed[0]!.svc_id, "basic", "2024-01-01T00:00:00.000Z", 1_500, 1_600, 100],
      [billed[1]!.svc_id, "basic", "2024-02-01T00:00:00.000Z", 500, 1_250, 750],
    ]);
    expect(
      (simulation.periods[0].simulated_fees as Json[]).map((f) => [f.fee_type, f.code, f.units, f.amount_cents]),
    ).toEqual([
      ["subscription", "pro", "1.0", 1_000],
      ["charge", "calls", "15.0", 600],
    ]);

    // only February's invoice, by issuing date
    const { plan_simulation: february } = await ok(
      as("POST", "/customers/acme/simulate_plan", { plan_code: "pro", from: "2024-03-01", to: "2024-03-31" }),
    );
    expect((february.periods as Json[]).map((p) => p.simulated_fees_amount_cents)).toEqual([1_250]);

    // nothing was stored or sent: the same two invoices, unchanged
    expect((await invoicesOf(as, "acme")).map((i) => [i.svc_id, i.fees_amount_cents])).toEqual(
      billed.map((i) => [i.svc_id, i.fees_amount_cents]),
    );

    const unknown = await as("POST", "/customers/acme/simulate_plan", { plan_code: "nope" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "plan_not_found" });
    const invalid = await as("POST", "/customers/acme/simulate_plan", { from: "March" });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error_details).toEqual({ plan_code: ["value_is_mandatory"], from: ["invalid_date"] });
    expect((await as("POST", "/customers/nobody/simulate_plan", { plan_code: "pro" })).status).toBe(404);
  });

  it("re-derives pay-in-advance fees, an invoice per event and the paid fees January's advance_charges invoice gathers, from the stored events in stored order", async () => {
    const as = await platform.story("Audit in advance", "2024-01-01T00:00:00Z");
    const api = await metric(as, "api", { aggregation_type: "sum_agg", field_name: "n" });
    const calls = await metric(as, "calls");
    await plan(as, "advance", {
      amount_cents: 1_000,
      charges: [
        // waiting fees (not invoiceable, paid ones regrouped on the billing run's advance_charges
        // invoice): graduated on the period's running total, above its high-water mark
        {
          billable_metric_id: api,
          charge_model: "graduated",
          pay_in_advance: true,
          invoiceable: false,
          regroup_paid_fees: "invoice",
          properties: {
            graduated_ranges: [
              { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "0" },
              { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "2" },
            ],
          },
        },
        // an invoice per event: 10.00 per call
        standard(calls, "10", { pay_in_advance: true }),
      ],
    });
    await subscribe(as, "acme", "advance", "sub_1");
    // one request whose order is not the events' time order, over three hours: its fees follow the request's order
    await send(as, [
      event("sub_1", "api", "2024-01-10T10:30:00Z", { n: 6 }),
      event("sub_1", "api", "2024-01-10T09:15:00Z", { n: 7 }),
      event("sub_1", "api", "2024-01-10T11:00:00Z", { n: 3 }),
    ]);
    await send(as, [event("sub_1", "calls", "2024-01-12T09:00:00Z")]);
    const deadline = Date.now() + 20_000;
    let fees: Json[] = [];
    while (fees.length < 4 && Date.now() < deadline) {
      fees = (await ok(as("GET", "/fees?external_subscription_id=sub_1&per_page=100"))).fees as Json[];
      if (fees.length < 4) await new Promise((r) => setTimeout(r, 100));
    }
    // 6 → 6.00; +7 → 13: 10 × 1.00 + 3 × 0.50 + 2.00 − 6.00 = 7.50; +3 → 16: 15.00 − 13.50 = 1.50 (in time order it would be 7.00, 6.50, 1.50)
    const apiFees = fees.filter((f) => f.item.code === "api");
    expect(
      Object.fromEntries(apiFees.map((f) => [f.event_transaction_id, f.amount_cents])),
      JSON.stringify(fees),
    ).toEqual(
      Object.fromEntries(
        [
          [6, 600],
          [7, 750],
          [3, 150],
        ].map(([n, cents]) => [
          fees.find((f) => f.item.code === "api" && f.units === `${n}.0`)?.event_transaction_id,
          cents,
        ]),
      ),
    );
    // paid outside (PUT /fees/{id}): the billing run gathers them on an advance_charges invoice
    for (const fee of apiFees) await ok(as("PUT", `/fees/${fee.svc_id}`, { fee: { payment_status: "succeeded" } }));
    await advanceClock(as, "2024-02-01T00:30:00Z");
    const invoices = await invoicesOf(as, "acme");
    const perEvent = invoices.find((i) => (i.fees as Json[]).some((f) => f.item.code === "calls"))!;
    const january = invoices.find((i) => (i.fees as Json[]).some((f) => f.item.code === "api"))!;
    expect(perEvent.svc_id).not.toBe(january.svc_id);
    expect(january.invoice_type).toBe("advance_charges");
    for (const invoice of [perEvent, january]) {
      const audit = await auditOf(as, invoice);
      expect(audit, JSON.stringify(audit.mismatches)).toMatchObject({ match: true, mismatches: [] });
      const advance = (audit.fees as Json[]).filter((f) => f.fee_type === "charge");
      expect(advance.length).toBeGreaterThan(0);
      for (const fee of advance) {
        expect(fee).toMatchObject({
          derivation: "raw_events",
          match: true,
          recomputed: { amount_cents: fee.invoiced.amount_cents, units: fee.invoiced.units, events_count: 1 },
        });
      }
    }
    expect(
      (await auditOf(as, january)).fees
        .filter((f: Json) => f.fee_type === "charge")
        .map((f: Json) => f.recomputed.amount_cents)
        .sort(),
    ).toEqual([150, 600, 750]);
    expect((await auditOf(as, january)).charges).toEqual([
      expect.objectContaining({ billable_metric_code: "api", raw_events_read: 3, late_events_count: 0 }),
    ]);
  });
});

describe("pay-in-advance audits after the plan changed", () => {
  it("re-derives each pay-in-advance fee on the charge as it was priced: after its price doubled, and after it left the plan", async () => {
    const as = await platform.story("Audit after a plan change", "2024-01-01T00:00:00Z");
    const calls = await metric(as, "calls");
    const created = await plan(as, "per_call", {
      amount_cents: 1_000,
      charges: [standard(calls, "10", { pay_in_advance: true })],
    });
    await subscribe(as, "acme", "per_call", "sub_1");
    // an invoice per event: 10.00 each
    await send(as, [event("sub_1", "calls", "2024-01-05T09:00:00Z"), event("sub_1", "calls", "2024-01-06T09:00:00Z")]);
    let perEvent: Json[] = [];
    await waitFor(
      async () =>
        (perEvent = (await invoicesOf(as, "acme")).filter((i) =>
          (i.fees as Json[]).some((f) => f.item.code === "calls"),
        )).length === 2,
      {
        what: "the two pay-in-advance invoices",
        timeoutMs: 20_000,
      },
    );
    const expectMatch = async (why: string) => {
      for (const invoice of perEvent) {
        const audit = await auditOf(as, invoice);
        expect(audit, `${why}: ${JSON.stringify(audit.mismatches)}`).toMatchObject({ match: true, mismatches: [] });
        const fees = (audit.fees as Json[]).filter((f) => f.fee_type === "charge");
        expect(
          fees.map((f) => [f.derivation, f.match, f.invoiced.amount_cents, f.recomputed.amount_cents]),
          why,
        ).toEqual([["raw_events", true, 1_000, 1_000]]);
      }
    };
    await expectMatch("as billed");
    const estimate = async () =>
      as("POST", "/events/estimate_fees", { event: { code: "calls", external_subscription_id: "sub_1" } });

    // the price doubled: the usage service's copy follows (estimates price 20.00), the audits still replay 10.00
    const charge = (created.charges as Json[])[0]!;
    await ok(
      as("PUT", "/plans/per_call", {
        plan: { charges: [{ ...standard(calls, "20", { pay_in_advance: true }), id: charge.svc_id }] },
      }),
    );
    await waitFor(async () => (await estimate()).body.fees?.[0]?.amount_cents === 2_000, {
      what: "the new price in the usage service's copy",
      timeoutMs: 20_000,
    });
    await expectMatch("after the price changed");

    // the charge left the plan: nothing is priced for the metric any more, the audits still replay the charge as billed
    await ok(as("PUT", "/plans/per_call", { plan: { charges: [] } }));
    await waitFor(async () => (await estimate()).status === 422, {
      what: "the charge gone from the usage service's copy",
      timeoutMs: 20_000,
    });
    await expectMatch("after the charge was removed");
  });
});
