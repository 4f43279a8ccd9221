import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeEnvelope, Subjects } from "@billing/bus";
import type { AdvanceFeeData } from "@billing/contracts";
import type {
  AdvanceFeesAsk,
  RederiveAsk,
  RederivedAdvanceChargeData,
  RederivedChargeData,
} from "../src/domain/invoice-audit";
import { FeeRepository } from "../src/persistence/fee-repository";
import { createAdvanceFeesBatch } from "../src/use-cases/fees/create-advance-fees";
import { invoiceAuditHandlers } from "../src/grpc/invoice-audit-handlers";
import type { UsageAuditPeer } from "../src/peers/usage-audit";
import { customerView, planView, startInvoicingHarness, subscriptionView, type InvoicingHarness } from "./harness";
import { UNIT_PRICE_CENTS } from "./peer-stand-ins";

// GET /invoices/{id}/audit's invoicing half through the wired service on the real MongoDB and
// NATS: an invoice billed by a billing run keeps each charge fee's snapshot and read instant, and
// the audit compares the usage service's re-derivation (a stand-in here) with what was stored.
let h: InvoicingHarness;
beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_audit");
});
afterAll(async () => {
  await h?.close();
});

/** The usage service's re-derivation, as a test sets it: `units` per call, and what it was asked. */
function usageAudit(units: () => number, late = 0) {
  const asked: Array<{ organizationId: string; ask: RederiveAsk }> = [];
  const peer: UsageAuditPeer = {
    rederive: async (organizationId, ask) => {
      asked.push({ organizationId, ask });
      return ask.snapshots.map((): RederivedChargeData => ({
        fees: [
          {
            charge_filter_index: null,
            grouped_by: {},
            true_up: false,
            units: `${units()}.0`,
            events_count: units(),
            amount_cents: units() * UNIT_PRICE_CENTS,
            precise_amount_cents: `${units() * UNIT_PRICE_CENTS}.0`,
            persistable: units() > 0,
          },
        ],
        events_read: units() + late,
        late_events_count: late,
        late_events: [],
      }));
    },
    rederiveAdvance: async () => [],
    close: () => undefined,
  };
  return { peer, asked };
}

async function billedInvoice() {
  const org = randomUUID();
  const customer = customerView();
  const plan = planView();
  const subscription = subscriptionView(customer, plan, {
    started_at: "2024-01-01T00:00:00.000Z",
    subscription_at: "2024-01-01T00:00:00.000Z",
    created_at: "2024-01-01T00:00:00.000Z",
  });
  await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
  await h.caughtUp();
  await h.publishSubscription(
    Subjects.catalog.subscriptionStarted,
    org,
    { subscription, plan },
    "2024-01-01T00:00:00.000Z",
  );
  await h.caughtUp();
  h.peers.usage.set(
    subscription.svc_id,
    Array.from({ length: 7 }, (_, i) => ({ at: `2024-01-${10 + i}T10:00:00.000Z`, units: 1 })),
  );
  await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
  const { invoices } = await h.invoicing.call("ListInvoices", {
    organization_id: org,
    page: { page: 1, per_page: 10 },
  });
  expect(invoices).toHaveLength(1);
  return { org, invoice: invoices[0]!, subscription };
}

// the InvoiceAudit message the handler answers (the gateway presents it)
const audit = async (peer: UsageAuditPeer, org: string, id: string) =>
  (
    await invoiceAuditHandlers({ ...h.replicas[0]!.deps, usageAudit: peer }).AuditInvoice(
      { organization_id: org, id },
      {} as never,
    )
  ).invoice_audit!;

describe("invoice audit (invoicing)", () => {
  it("asks the usage service with the stored snapshot and read instant, and matches when the raw events agree", async () => {
    const { org, invoice } = await billedInvoice();
    const usage = usageAudit(() => 7, 2);
    const view = await audit(usage.peer, org, invoice.svc_id);
    expect(usage.asked).toHaveLength(1);
    expect(usage.asked[0]!.organizationId).toBe(org);
    expect(usage.asked[0]!.ask.billedThrough?.toISOString()).toBe("2024-02-01T00:00:00.000Z"); // the billing run's instant, stored on the fee
    expect(usage.asked[0]!.ask.snapshots[0]!.snapshot).toMatchObject({
      charge: { svc_id: "ch_calls" },
      read_through_seq: 42,
    });
    expect(view).toMatchObject({
      svc_invoice_id: invoice.svc_id,
      match: true,
      mismatches: [],
      late_events_count: 2,
      invoiced_fees_amount_cents: 350,
      recomputed_fees_amount_cents: 350,
    });
    expect(view.fees!.map((f) => [f.fee_type, f.derivation, f.match])).toEqual([
      ["subscription", "not_derived_from_events", null],
      ["charge", "raw_events", true],
    ]);
  });

  it("names the fee and why when the raw events disagree", async () => {
    const { org, invoice } = await billedInvoice();
    const view = await audit(usageAudit(() => 8).peer, org, invoice.svc_id);
    expect(view.match).toBe(false);
    const charge = invoice.fees.find((f) => f.item!.type === "charge")!;
    expect(view.mismatches).toEqual([
      {
        svc_fee_id: charge.svc_id,
        svc_charge_id: "ch_calls",
        reason:
          "units invoiced 7.0, recomputed 8.0; events_count invoiced 7, recomputed 8; amount_cents invoiced 350, recomputed 400",
      },
    ]);
  });

  it("answers another organization's invoice as not found, asking nothing", async () => {
    const { invoice } = await billedInvoice();
    const usage = usageAudit(() => 7);
    await expect(audit(usage.peer, randomUUID(), invoice.svc_id)).rejects.toMatchObject({ code: "invoice_not_found" });
    expect(usage.asked).toHaveLength(0);
  });
});

describe("invoice audit of pay-in-advance fees (invoicing)", () => {
  const customer = customerView();
  // a pay-in-advance charge: 12.00 per seat, its fees stored by the consumer (the usage service's pricing stood in for)
  const seat = (
    n: number,
    invoiceable: boolean,
    subscription: ReturnType<typeof subscriptionView>,
    plan: ReturnType<typeof planView>,
    org: string,
  ): AdvanceFeeData => ({
    id: randomUUID(),
    organization_id: org,
    event_transaction_id: `seat_${n}`,
    event_timestamp: `2024-01-${10 + n}T10:00:00.000Z`,
    subscription_id: subscription.svc_id,
    external_subscription_id: subscription.external_id,
    customer_id: customer.svc_id,
    external_customer_id: customer.external_id,
    plan_id: plan.svc_id,
    plan_code: plan.code,
    charge_id: "ch_seats",
    charge_filter_index: null,
    filter: null,
    metric: {
      svc_id: "bm_seats",
      code: "seats",
      name: "Seats",
      description: null,
      aggregation_type: "unique_count_agg",
    },
    charge_model: "standard",
    invoice_display_name: null,
    invoiceable,
    regroup_paid_fees: invoiceable ? null : "invoice",
    prorated: false,
    timezone: "UTC",
    event_key: `seat_key_${n}`,
    event_svc_id: `seat_ev_${n}`,
    currency: "EUR",
    units: "1.0",
    amount_cents: 1_200,
    precise_amount_cents: "1200.0",
    unit_amount_cents: 1_200,
    precise_unit_amount: "12.0",
    amount_details: {},
    grouped_by: {},
    properties: { amount: "12" },
    charge_taxes: [],
    plan_taxes: [],
    from: "2024-01-01T00:00:00.000Z",
    to: "2024-01-31T23:59:59.999Z",
    charge_version: "seats_v1",
  });

  /**
   * An invoice per event for an invoiceable fee (Jan 11); a fee of a charge regrouping paid fees
   * (Jan 12), paid, gathered on the advance_charges invoice of January's billing run.
   */
  async function invoicesWithAdvanceFees() {
    const org = randomUUID();
    const base = planView();
    const plan = planView({
      charges: [
        ...base.charges,
        {
          ...base.charges[0]!,
          svc_id: "ch_seats",
          svc_billable_metric_id: "bm_seats",
          billable_metric_code: "seats",
          pay_in_advance: true,
          invoiceable: false,
          regroup_paid_fees: "invoice",
          properties: { amount: "12" },
        },
      ],
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
    h.peers.usage.set(subscription.svc_id, []);
    const deps = h.replicas[0]!.deps;
    const feeRepository = new FeeRepository(h.connection);
    const fees = [seat(1, true, subscription, plan, org), seat(2, false, subscription, plan, org)];
    for (const fee of fees) {
      const feeDeps = {
        ...deps,
        fees: feeRepository,
        advanceFees: { priceBatch: async (envelopes: unknown[]) => envelopes.map(() => [fee]), close: () => undefined },
        publishManyFeeEvents: async () => undefined,
      };
      const event = {
        svc_id: randomUUID(),
        transaction_id: fee.event_transaction_id,
        external_subscription_id: subscription.external_id,
        code: "seats",
        timestamp: fee.event_timestamp,
        properties: {},
        precise_total_amount_cents: null,
        created_at: fee.event_timestamp,
      };
      const envelope = makeEnvelope({
        type: Subjects.usage.eventIngested,
        organizationId: org,
        occurredAt: new Date(fee.event_timestamp),
        data: { batch_id: randomUUID(), events: [event] },
      });
      const created = await createAdvanceFeesBatch(feeDeps as never, [envelope]);
      await created.publish();
    }
    // the regrouped fee is paid (PUT /fees/{id}) before the billing run
    const paidFee = await feeRepository.findById(org, fees[1]!.id);
    expect(await feeRepository.setPaymentStatus(paidFee!, "succeeded", new Date("2024-01-20T00:00:00.000Z"))).toBe(
      true,
    );
    await h.scheduled.call("RunDue", { organization_id: org, at: "2024-02-01T00:00:00.000Z" });
    const { invoices } = await h.invoicing.call("ListInvoices", {
      organization_id: org,
      page: { page: 1, per_page: 10 },
    });
    return { org, invoices, fees, subscription };
  }

  /** The usage service's replay, as a test sets it: per fee id, the cents it gives (absent: no event gives it). */
  function replay(cents: Record<string, number>) {
    const asked: AdvanceFeesAsk[][] = [];
    const peer: UsageAuditPeer = {
      rederive: async (_org, ask) =>
        ask.snapshots.map(() => ({
          fees: [
            {
              charge_filter_index: null,
              grouped_by: {},
              true_up: false,
              units: "0.0",
              events_count: 0,
              amount_cents: 0,
              precise_amount_cents: "0.0",
              persistable: false,
            },
          ],
          events_read: 0,
          late_events_count: 0,
          late_events: [],
        })),
      rederiveAdvance: async (_org, _sub, asks) => {
        asked.push([...asks]);
        return asks.map((ask): RederivedAdvanceChargeData => ({
          error: null,
          billable_metric_code: "seats",
          events_read: 3,
          fees: ask.feeIds
            .filter((id) => id in cents)
            .map((id, i) => ({
              fee_id: id,
              event_transaction_id: `seat_${i}`,
              event_timestamp: "2024-01-11T10:00:00.000Z",
              charge_filter_index: null,
              grouped_by: {},
              units: "1.0",
              amount_cents: cents[id]!,
              precise_amount_cents: `${cents[id]}.0`,
              replay_position: i + 1,
            })),
        }));
      },
      close: () => undefined,
    };
    return { peer, asked };
  }

  it("re-derives the fee of an invoice per event and the paid fees an advance_charges invoice gathered, and matches when the replay agrees", async () => {
    const { org, invoices, fees, subscription } = await invoicesWithAdvanceFees();
    const own = invoices.find((i) => i.fees.some((f) => f.svc_id === fees[0]!.id))!;
    const periodic = invoices.find((i) => i.fees.some((f) => f.svc_id === fees[1]!.id))!;
    expect(own).toBeDefined();
    expect(periodic?.invoice_type).toBe("advance_charges");
    expect(own.svc_id).not.toBe(periodic.svc_id);
    const usage = replay({ [fees[0]!.id]: 1_200, [fees[1]!.id]: 1_200 });
    for (const [invoice, fee] of [
      [own, fees[0]!],
      [periodic, fees[1]!],
    ] as const) {
      const view = await audit(usage.peer, org, invoice.svc_id);
      expect(view, invoice.svc_id).toMatchObject({ match: true, mismatches: [] });
      expect(view.fees!.find((f) => f.svc_fee_id === fee.id)).toMatchObject({
        derivation: "raw_events",
        match: true,
        invoiced: { amount_cents: 1_200, units: "1.0" },
        recomputed: { amount_cents: 1_200, units: "1.0", events_count: 1 },
      });
      expect(view.charges).toContainEqual(
        expect.objectContaining({
          svc_charge_id: "ch_seats",
          raw_events_read: 3,
          from_datetime: "2024-01-01T00:00:00.000Z",
        }),
      );
    }
    // one call per invoice: the subscription, the charge, its charges period, the invoice's fee and the charge version it was
    // priced with (kept on the fee of its own invoice and of the advance_charges invoice that gathered it)
    expect(
      usage.asked.map((asks) =>
        asks.map((a) => [
          a.externalSubscriptionId,
          a.subscriptionId,
          a.chargeId,
          a.from.toISOString(),
          a.to.toISOString(),
          a.feeIds,
          a.chargeVersion,
        ]),
      ),
    ).toEqual([
      [
        [
          subscription.external_id,
          subscription.svc_id,
          "ch_seats",
          "2024-01-01T00:00:00.000Z",
          "2024-01-31T23:59:59.999Z",
          [fees[0]!.id],
          "seats_v1",
        ],
      ],
      [
        [
          subscription.external_id,
          subscription.svc_id,
          "ch_seats",
          "2024-01-01T00:00:00.000Z",
          "2024-01-31T23:59:59.999Z",
          [fees[1]!.id],
          "seats_v1",
        ],
      ],
    ]);
  });

  it("names the pay-in-advance fee and why when the replay disagrees or gives no such fee", async () => {
    const { org, invoices, fees } = await invoicesWithAdvanceFees();
    const own = invoices.find((i) => i.fees.some((f) => f.svc_id === fees[0]!.id))!;
    const periodic = invoices.find((i) => i.fees.some((f) => f.svc_id === fees[1]!.id))!;
    const usage = replay({ [fees[0]!.id]: 0 });
    const differs = await audit(usage.peer, org, own.svc_id);
    expect(differs.match).toBe(false);
    expect(differs.mismatches).toEqual([
      {
        svc_fee_id: fees[0]!.id,
        svc_charge_id: "ch_seats",
        reason: expect.stringContaining("amount_cents invoiced 1200, recomputed 0"),
      },
    ]);
    const missing = await audit(usage.peer, org, periodic.svc_id);
    expect(missing.mismatches).toEqual([
      {
        svc_fee_id: fees[1]!.id,
        svc_charge_id: "ch_seats",
        reason: expect.stringContaining("gives this pay-in-advance fee"),
      },
    ]);
  });
});
