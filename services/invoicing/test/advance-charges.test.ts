import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Subjects, type Envelope } from "@billing/bus";
import type { EventData, InvoicingMessages, Subject } from "@billing/contracts";
import { collectEvents, waitFor } from "@billing/testkit";
import { taxedAdvanceFee, type AdvanceFeeRecord } from "../src/domain/advance-fees";
import { FeeRepository } from "../src/persistence/fee-repository";
import type { FeeDraft } from "../src/domain/invoice";
import { customerView, planView, startInvoicingHarness, subscriptionView, type InvoicingHarness } from "./harness";

// advance_charges invoices through the wired service (two replicas): the paid waiting fees of a
// regrouping charge go on ONE invoice per customer and billing instant, whatever the concurrent or
// repeated billing runs; unpaid ones wait for a later run.
let h: InvoicingHarness;

beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_advance_charges", { replicas: 2 });
});

afterAll(async () => {
  await h?.close();
});

type Invoice = InvoicingMessages.Invoice__Output;

const invoicesOf = async (org: string): Promise<Invoice[]> =>
  (await h.invoicing.call("ListInvoices", { organization_id: org, page: { page: 1, per_page: 100 } })).invoices;

/** A waiting pay-in-advance fee of the January period, as the fee consumer stores it (paid when `succeededAt` is given). */
function waitingFee(
  org: string,
  sub: { svc_id: string; external_id: string; svc_customer_id: string; external_customer_id: string },
  cents: number,
  succeededAt: string | null,
): AdvanceFeeRecord {
  const id = randomUUID();
  const draft: FeeDraft = {
    id,
    fee_type: "charge",
    subscription_id: sub.svc_id,
    external_subscription_id: sub.external_id,
    plan_code: "starter",
    charge_id: "ch_calls",
    charge_filter_index: null,
    fixed_charge_id: null,
    billable_metric_code: "calls",
    charge_model: "standard",
    aggregation_type: "count_agg",
    true_up_parent_fee_id: null,
    true_up: false,
    item: {
      code: "calls",
      name: "API calls",
      description: null,
      invoice_display_name: "API calls",
      filter_invoice_display_name: null,
      filters: null,
      item_id: "bm_calls",
      item_type: "BillableMetric",
      grouped_by: {},
    },
    units: "1.0",
    total_aggregated_units: "1.0",
    events_count: 1,
    precise_unit_amount: `${cents / 100}`,
    amount_cents: cents,
    precise_amount_cents: `${cents}`,
    pay_in_advance: true,
    invoiceable: false,
    from: new Date("2024-01-01T00:00:00.000Z"),
    to: new Date("2024-01-31T23:59:59.999Z"),
    amount_details: {},
    properties: {},
    taxes: [],
    description: null,
  };
  const at = new Date("2024-01-10T00:00:00.000Z");
  return {
    id,
    organization_id: org,
    customer_id: sub.svc_customer_id,
    external_customer_id: sub.external_customer_id,
    subscription_id: sub.svc_id,
    external_subscription_id: sub.external_id,
    billable_metric_code: "calls",
    currency: "EUR",
    fee: taxedAdvanceFee(draft, "EUR"),
    invoice_id: null,
    event_transaction_id: `tr_${id}`,
    payment_status: succeededAt ? "succeeded" : "pending",
    succeeded_at: succeededAt ? new Date(succeededAt) : null,
    failed_at: null,
    refunded_at: null,
    created_at: at,
    updated_at: at,
    revision: 0,
  };
}

const stored = (ids: string[]) =>
  h.connection
    .collection("advance_fees")
    .find({ _id: { $in: ids } } as never)
    .toArray();

describe("advance_charges invoices", () => {
  it("regroups the paid fees once per billing instant, across concurrent and repeated runs; unpaid ones wait", async () => {
    const org = randomUUID();
    const customer = customerView();
    const base = planView();
    const plan = planView({
      charges: [{ ...base.charges[0]!, pay_in_advance: true, invoiceable: false, regroup_paid_fees: "invoice" }],
    });
    const subscription = subscriptionView(customer, plan);
    await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
    await h.caughtUp();
    await h.publishSubscription(
      Subjects.catalog.subscriptionStarted,
      org,
      { subscription, plan },
      "2024-01-01T00:00:00.000Z",
    );
    await h.caughtUp();
    const fees = [
      waitingFee(org, subscription, 1_000, "2024-01-20T00:00:00.000Z"),
      waitingFee(org, subscription, 500, "2024-01-25T00:00:00.000Z"),
      waitingFee(org, subscription, 700, null),
    ];
    // two stored as documents were before `fee_json` (the fee as fields, its period end in fee.to), one as the repository stores them now
    await h.connection
      .collection("advance_fees")
      .insertMany(fees.slice(0, 2).map(({ id, ...rest }) => ({ _id: id, ...rest, deleted_at: null })) as never[]);
    await new FeeRepository(h.connection).insertMany([fees[2]!]);
    expect((await stored([fees[2]!.id]))[0]).toMatchObject({
      fee_json: JSON.stringify(fees[2]!.fee),
      period_to: fees[2]!.fee.to,
    });

    // February 1, three runs at once and one after: one periodic invoice, one advance_charges invoice of the two paid fees
    const I = Subjects.invoicing;
    const collect = <S extends Subject>(subject: S) => collectEvents<Envelope<EventData<S>>>(h.bus.nc, subject, org);
    const [finalizedEvents, feeEvents] = [collect(I.invoiceFinalized), collect(I.feeCreated)];
    const at = "2024-02-01T00:00:00.000Z";
    await Promise.all([1, 2, 3].map(() => h.scheduled.call("RunDue", { organization_id: org, at })));
    await h.scheduled.call("RunDue", { organization_id: org, at });
    let invoices = await invoicesOf(org);
    expect(invoices.map((i) => i.invoice_type).sort()).toEqual(["advance_charges", "subscription"]);
    const periodic = invoices.find((i) => i.invoice_type === "subscription")!;
    expect(periodic.fees.map((f) => f.item!.type)).toEqual(["subscription"]);
    const first = invoices.find((i) => i.invoice_type === "advance_charges")!;
    expect(first).toMatchObject({
      status: "finalized",
      payment_status: "succeeded",
      fees_amount_cents: 1_500,
      taxes_amount_cents: 0,
      total_amount_cents: 1_500,
      issuing_date: "2024-02-01",
    });
    expect(first.fees.map((f) => f.svc_id).sort()).toEqual([fees[0]!.id, fees[1]!.id].sort());
    // announced once finalized; its fees were announced when they were created: not again
    await waitFor(() => finalizedEvents!.received.length === 2 && feeEvents!.received.length >= 1, {
      timeoutMs: 45_000, // events through the real NATS server, on a loaded machine too
      what: "both invoices finalized",
    });
    expect(finalizedEvents!.received.map((e) => e.data.invoice.invoice_type).sort()).toEqual([
      "advance_charges",
      "subscription",
    ]);
    expect(feeEvents!.received.map((e) => e.data.fee.svc_invoice_id)).toEqual([periodic.svc_id]);
    for (const c of [finalizedEvents, feeEvents]) c!.stop();
    const after = await stored(fees.map((f) => f.id));
    expect(Object.fromEntries(after.map((d) => [d._id as unknown as string, d.invoice_id]))).toEqual({
      [fees[0]!.id]: first.svc_id,
      [fees[1]!.id]: first.svc_id,
      [fees[2]!.id]: null,
    });

    // the third is paid on February 10: March 1's run regroups it alone
    await h.connection.collection("advance_fees").updateOne({ _id: fees[2]!.id } as never, {
      $set: { payment_status: "succeeded", succeeded_at: new Date("2024-02-10T00:00:00.000Z") },
      $inc: { revision: 1 },
    });
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-03-01T00:00:00.000Z" });
    invoices = await invoicesOf(org);
    const advance = invoices.filter((i) => i.invoice_type === "advance_charges");
    expect(advance).toHaveLength(2);
    const second = advance.find((i) => i.svc_id !== first.svc_id)!;
    expect(second).toMatchObject({ fees_amount_cents: 700, total_amount_cents: 700, payment_status: "succeeded" });
    expect(second.number).not.toBe(first.number);
    expect((await stored([fees[2]!.id]))[0]!.invoice_id).toBe(second.svc_id);
  }, 90_000); // two replicas, concurrent runs and events through NATS: slow on a loaded machine
});
