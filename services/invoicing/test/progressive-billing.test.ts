import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishEnvelope, Streams, Subjects } from "@billing/bus";
import { atFrozenTime } from "@billing/clock";
import { domainEvent } from "@billing/contracts";
import type { Models } from "../src/persistence/models";
import { ProgressiveRepository } from "../src/persistence/progressive-repository";
import { runDueWork } from "../src/use-cases/scheduled-work/run-due-work";
import {
  customerView,
  eventually,
  planView,
  startInvoicingHarness,
  subscriptionView,
  type InvoicingHarness,
} from "./harness";

// Progressive billing with two replicas of the service on one database and one bus, each with its
// own durable consumer of billing.usage.event.ingested (so EVERY envelope is handled twice, at
// once), and envelopes published again (a redelivery): each threshold crossing is invoiced once,
// announced once, and credited on the period's invoice. The usage stand-in prices 0.50 per unit.
let h: InvoicingHarness;

beforeAll(async () => {
  h = await startInvoicingHarness("invoicing_progressive", { replicas: 2 });
});

afterAll(async () => {
  await h?.close();
});

const noGrace = {
  invoice_grace_period: null,
  subscription_invoice_issuing_date_anchor: null,
  subscription_invoice_issuing_date_adjustment: null,
};

async function seed() {
  const org = randomUUID();
  const plan = planView({
    usage_thresholds: [
      {
        svc_id: "ut_10",
        threshold_display_name: null,
        amount_cents: 1_000,
        recurring: false,
        created_at: null,
        updated_at: null,
      },
      {
        svc_id: "ut_30",
        threshold_display_name: "big",
        amount_cents: 3_000,
        recurring: false,
        created_at: null,
        updated_at: null,
      },
    ],
  });
  const customer = customerView({ billing_configuration: noGrace });
  const subscription = subscriptionView(customer, plan);
  await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
  await h.publishSubscription(
    Subjects.catalog.subscriptionStarted,
    org,
    { subscription, plan },
    "2024-01-01T00:00:00.000Z",
  );
  await h.caughtUp();
  return { org, customer, subscription };
}

/** An envelope of `count` stored events of one subscription, as the usage service announces them (at the organization's frozen time). */
async function ingested(org: string, externalSubscriptionId: string, at: string, count: number) {
  const events = Array.from({ length: count }, () => ({
    svc_id: randomUUID(),
    transaction_id: randomUUID(),
    external_subscription_id: externalSubscriptionId,
    code: "calls",
    timestamp: at,
    properties: {},
    precise_total_amount_cents: null,
    created_at: at,
  }));
  await publishEnvelope(
    h.bus.js,
    atFrozenTime(new Date(at), () =>
      domainEvent(Subjects.usage.eventIngested, {
        organizationId: org,
        data: { batch_id: randomUUID(), events },
        occurredAt: new Date(at),
      }),
    ),
  );
}

const invoicesOf = async (org: string) =>
  (await h.replicas[0]!.deps.invoices.list(org, {}, { page: 1, perPage: 100 })).items.sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime(),
  );

/**
 * How many usage_threshold_reached events the stream holds (this harness has a NATS server of its
 * own, and the stream de-duplicates by envelope id: the same crossing announced again is one message).
 */
async function thresholdEventCount(): Promise<number> {
  const subject = Subjects.invoicing.subscriptionUsageThresholdReached;
  await eventually(
    async () => (await h.connection.collection("invoices").countDocuments({ "outbox.0": { $exists: true } })) === 0,
    "the outbox relayed",
  );
  const info = await h.bus.jsm.streams.info(Streams.invoicing.name, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}

describe("progressive billing", () => {
  it("invoices a crossing once whatever the redeliveries and replicas, and credits it on the next invoices", async () => {
    const { org, subscription } = await seed();
    const calls = h.peers.chargeUsageCalls.length;

    // Jan 10: 25 units (12.50) cross 10.00 — the envelope of 500 events arrives three times, and
    // each replica's consumer handles each copy
    h.peers.usage.set(subscription.svc_id, [{ at: "2024-01-10T00:00:00.000Z", units: 25 }]);
    await Promise.all([1, 2, 3].map(() => ingested(org, subscription.external_id, "2024-01-10T00:00:00.000Z", 500)));
    await h.caughtUp();
    let invoices = await invoicesOf(org);
    expect(
      invoices.map((i) => [
        i.invoice_type,
        i.status,
        i.amounts.fees_amount_cents,
        i.amounts.progressive_billing_credit_amount_cents,
        i.amounts.total_amount_cents,
      ]),
    ).toEqual([["progressive_billing", "finalized", 1_250, 0, 1_250]]);
    expect(invoices[0]!.number).toMatch(/-001$/);
    expect(
      invoices[0]!.applied_usage_thresholds?.map((a) => [a.usage_threshold.svc_id, a.lifetime_usage_amount_cents]),
    ).toEqual([["ut_10", 1_250]]);
    expect(await thresholdEventCount()).toBe(1);
    // one usage read per envelope handled (6 = 3 envelopes × 2 replicas), never one per event (3000)
    expect(h.peers.chargeUsageCalls.length - calls).toBeLessThanOrEqual(6);
    expect(h.peers.chargeUsageCalls.slice(calls).every((c) => c.consistent && c.periods === 1)).toBe(true);

    // Jan 20: 70 units in all (35.00) cross 30.00: billed to date, 12.50 credited; again redelivered
    h.peers.usage.set(subscription.svc_id, [
      { at: "2024-01-10T00:00:00.000Z", units: 25 },
      { at: "2024-01-20T00:00:00.000Z", units: 45 },
    ]);
    await Promise.all([1, 2].map(() => ingested(org, subscription.external_id, "2024-01-20T00:00:00.000Z", 10)));
    await h.caughtUp();
    invoices = await invoicesOf(org);
    expect(
      invoices.map((i) => [
        i.invoice_type,
        i.amounts.fees_amount_cents,
        i.amounts.progressive_billing_credit_amount_cents,
        i.amounts.total_amount_cents,
      ]),
    ).toEqual([
      ["progressive_billing", 1_250, 0, 1_250],
      ["progressive_billing", 3_500, 1_250, 2_250],
    ]);
    expect(invoices[1]!.progressive_credit?.progressive_invoice_ids).toEqual([invoices[0]!.id]);
    expect(await thresholdEventCount()).toBe(2);

    // nothing new crossed: more envelopes change nothing
    await ingested(org, subscription.external_id, "2024-01-21T00:00:00.000Z", 1);
    await h.caughtUp();
    expect(await invoicesOf(org)).toHaveLength(2);

    // Feb 1, billed by both replicas at once: 100.00 + 35.00, the 35.00 billed progressively credited
    const at = new Date("2024-02-01T00:00:00Z");
    await Promise.all(h.replicas.map((r) => atFrozenTime(at, () => runDueWork(r.deps, { organizationId: org }))));
    invoices = await invoicesOf(org);
    expect(invoices).toHaveLength(3);
    const january = invoices[2]!;
    expect([
      january.invoice_type,
      january.status,
      january.amounts.fees_amount_cents,
      january.amounts.progressive_billing_credit_amount_cents,
      january.amounts.total_amount_cents,
    ]).toEqual(["subscription", "finalized", 13_500, 3_500, 10_000]);
    // the credit is spread on the charge fee (taxes would be computed net of it)
    expect(january.fees.find((f) => f.fee_type === "charge")!.precise_coupons_amount_cents).toBe("3500.0");

    // February: the fixed thresholds are lifetime — crossed once, never again
    h.peers.usage.set(subscription.svc_id, [{ at: "2024-02-05T00:00:00.000Z", units: 100 }]);
    await ingested(org, subscription.external_id, "2024-02-05T00:00:00.000Z", 1);
    await h.caughtUp();
    expect(await invoicesOf(org)).toHaveLength(3);
  }, 60_000);

  it("reads nothing for an organization that never billed progressively, and marks organizations whose copies were stored before marks existed", async () => {
    // an organization on a plan without thresholds: its envelopes cost one keyed read of its mark and no usage call
    const org = randomUUID();
    const customer = customerView({ billing_configuration: noGrace });
    const subscription = subscriptionView(customer, planView({ usage_thresholds: [] }));
    await h.publishCustomer(org, customer, "2024-01-01T00:00:00.000Z");
    await h.publishSubscription(
      Subjects.catalog.subscriptionStarted,
      org,
      { subscription, plan: planView({ usage_thresholds: [] }) },
      "2024-01-01T00:00:00.000Z",
    );
    await h.caughtUp();
    const calls = h.peers.chargeUsageCalls.length;
    await ingested(org, subscription.external_id, "2024-01-10T00:00:00.000Z", 50);
    await h.caughtUp();
    expect(h.peers.chargeUsageCalls.length).toBe(calls);
    const progressive = h.replicas[0]!.deps.progressive;
    expect(await progressive.billsProgressively(org)).toBe(false);
    expect(await progressive.progressiveCopies(org, [subscription.external_id])).toEqual([]);

    // a copy with thresholds marks its organization
    const { org: marked, subscription: billed } = await seed();
    expect(await progressive.billsProgressively(marked)).toBe(true);
    expect((await progressive.progressiveCopies(marked, [billed.external_id, "unknown"])).map((c) => c.id)).toEqual([
      billed.svc_id,
    ]);

    // copies stored before marks existed: the first start marks their organizations, once
    const marks = h.connection.collection("progressive_organizations");
    await marks.deleteMany({});
    // a process that has not seen the mark yet (the replicas remember it)
    const fresh = new ProgressiveRepository({
      progressiveOrganizations: h.connection.model("ProgressiveOrganization"),
      subscriptions: h.connection.model("SubscriptionCopy"),
    } as unknown as Models);
    expect(await fresh.billsProgressively(marked)).toBe(false);
    await fresh.markProgressiveOrganizations(new Date());
    expect(await fresh.billsProgressively(marked)).toBe(true);
    expect(await fresh.billsProgressively(org)).toBe(false);
    await marks.deleteOne({ _id: marked as never });
    await fresh.markProgressiveOrganizations(new Date()); // done before: not again
    expect(await marks.countDocuments({ _id: marked as never })).toBe(0);
  }, 60_000);
});
