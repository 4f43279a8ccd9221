import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@billing/clock";
import { Rpc, type UsageAuditRpc } from "@billing/contracts";
import type { HandlerRequestOf } from "@billing/grpc";
import { usageAuditHandlers } from "../src/grpc/usage-audit-handlers";
import type { SubscriptionCopy } from "../src/domain/read-copies";
import { AdvanceStore } from "../src/persistence/advance-store";
import type { UsageEventData, AdvanceFeeData } from "@billing/contracts";
import { priceAdvanceEvents } from "../src/use-cases/advance/price-advance-events";
import { chargeView, planView, subscriptionView } from "./read-copies-fixtures";
import { received, startUsageHarness, type EventIn, type UsageHarness } from "./usage-harness";

// UsageAuditService.RederiveAdvanceFees through the wiring, on the real NATS and MongoDB test
// servers: events ingested and stored in pages, their pay-in-advance fees priced by the real
// PriceAdvanceEvents (what invoicing's consumer asks, envelope by envelope), then re-derived from
// the raw stored events alone — in the order they were stored, which is not their time order.
let h: UsageHarness;
const org = randomUUID();
const clock = new ManualClock("2026-02-20T00:00:00Z");
const FEB = Date.parse("2026-02-01T00:00:00Z");
const HOUR = 3_600_000;
const feeIds: string[] = [];
const priced: AdvanceFeeData[] = [];

const ranges = (perUnit: string, above: string) => ({
  graduated_ranges: [
    { from_value: 0, to_value: 10, per_unit_amount: perUnit, flat_amount: "0" },
    { from_value: 11, to_value: null, per_unit_amount: above, flat_amount: "2" },
  ],
});
const metric = { svc_id: "bm_api", code: "api" };
// graduated, per tenant (pricing group), and a filter for eu with its own ranges
const charge = chargeView(metric, {
  svc_id: "ch_api",
  charge_model: "graduated",
  properties: { ...ranges("1", "0.5"), pricing_group_keys: ["tenant"] },
  filters: [{ invoice_display_name: "EU", properties: ranges("2", "1"), values: { region: ["eu"] } }],
});
const plan = planView({ code: "api_plan", updated_at: "2026-01-01T00:00:00.000Z", charges: [charge] });
const subscription = subscriptionView(plan, {
  external_id: "sub_1",
  started_at: "2026-01-01T00:00:00.000Z",
  subscription_at: "2026-01-01T00:00:00.000Z",
});
const copy = {
  organization_id: org,
  subscription: { ...subscription, organization_id: org },
  plan: { ...plan, organization_id: org },
} as unknown as SubscriptionCopy;

const ev = (transaction_id: string, hours: number, properties: Record<string, unknown>): EventIn => ({
  transaction_id,
  external_subscription_id: "sub_1",
  code: "api",
  timestamp_ms: FEB + hours * HOUR,
  properties_json: JSON.stringify(properties),
});

let store: AdvanceStore;
const handlers = () =>
  usageAuditHandlers({
    collections: h.collections,
    copies: h.copies,
    store,
    storedThroughNow: h.parts.storedThroughNow,
  });
type Ask = HandlerRequestOf<UsageAuditRpc, "RederiveAdvanceFees">["asks"][number];
// no charge version unless given: "" as the wire gives an unset string
const ask = (fee_ids: string[], extra: Partial<Ask> = {}): Ask => ({
  subscription_id: subscription.svc_id,
  charge_id: "ch_api",
  from: "2026-02-01T00:00:00.000Z",
  to: "2026-02-28T23:59:59.999Z",
  fee_ids,
  charge_version: "",
  ...extra,
});
/** RederiveAdvanceFees through the handler, its answer as the invoicing service receives it. */
const rederive = (asks: Ask[], organization_id = org) =>
  received(
    Rpc.usageAudit,
    "RederiveAdvanceFees",
    handlers().RederiveAdvanceFees({ organization_id, external_subscription_id: "sub_1", asks }, {} as never),
  );

beforeAll(async () => {
  h = await startUsageHarness("usage_audit_advance", {}, clock);
  h.copies.addMetric(org, {
    ...metric,
    aggregation_type: "sum_agg",
    field_name: "n",
    filters: [{ key: "region", values: ["eu", "us"] }],
  });
  h.copies.subscriptions = (o: string, externalId: string) => (o === org && externalId === "sub_1" ? [copy] : []);
  store = new AdvanceStore(h.connection);
  // two requests; each message's events in an order that is not their time order (10:30 before 09:15), over three hours
  const batches = [
    [
      ev("a", 10.5, { n: 6, tenant: "t1" }),
      ev("b", 9.25, { n: 7, tenant: "t1" }),
      ev("c", 11, { n: 3, region: "eu", tenant: "t1" }),
      ev("x", 9.5, { n: 1, tenant: "t2" }),
    ],
    [ev("d", 9.75, { n: 4, tenant: "t1" }), ev("e", 10.1, { n: 9, region: "eu" }), ev("f", 8, { n: 5, tenant: "t2" })],
  ];
  for (const [i, batch] of batches.entries()) {
    const { events } = await h.ingest(org, batch);
    // what invoicing's consumer does with the message's billing.usage.event.ingested envelope
    priced.push(
      ...(await priceAdvanceEvents(
        { copies: h.copies, store },
        { organizationId: org, envelopeId: `env_${i}`, events: events as unknown as UsageEventData[] },
      )),
    );
  }
  feeIds.push(...priced.map((f) => f.id));
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("RederiveAdvanceFees", () => {
  it("gives every event's fee as the pay-in-advance consumer priced it, replaying the stored events in the order they were stored", async () => {
    // the consumer's fees: in stream order, tenant t1 pays a(6) = 6.00, b(+7 → 13: 10 + 1.50 + 2 flat) = 7.50, d(+4 → 17) = 2.00
    expect(priced.map((f) => [f.event_transaction_id, f.charge_filter_index, f.grouped_by, f.amount_cents])).toEqual([
      ["a", null, { tenant: "t1" }, 600],
      ["b", null, { tenant: "t1" }, 750],
      ["c", 0, {}, 600],
      ["x", null, { tenant: "t2" }, 100],
      ["d", null, { tenant: "t1" }, 200],
      ["e", 0, {}, 1_800],
      ["f", null, { tenant: "t2" }, 500],
    ]);
    const { charges } = await rederive([ask(feeIds)]);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ error: "", billable_metric_code: "api", events_read: 7 });
    expect(
      charges[0]!.fees.map((f) => ({
        id: f.fee_id,
        tx: f.event_transaction_id,
        filter: f.charge_filter_index ?? null,
        grouped: f.grouped_by,
        units: f.units,
        cents: f.amount_cents,
        precise: f.precise_amount_cents,
        at: f.event_timestamp,
      })),
    ).toEqual(
      priced.map((f) => ({
        id: f.id,
        tx: f.event_transaction_id,
        filter: f.charge_filter_index,
        grouped: f.grouped_by,
        units: f.units,
        cents: f.amount_cents,
        precise: f.precise_amount_cents,
        at: f.event_timestamp,
      })),
    );
    expect(charges[0]!.fees.map((f) => f.replay_position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("answers only the fees asked for, still priced after every earlier event (a deleted or already invoiced fee moved the mark too)", async () => {
    const d = priced.find((f) => f.event_transaction_id === "d")!;
    const { charges } = await rederive([ask([d.id, "not-a-fee"])]);
    expect(charges[0]!.fees.map((f) => [f.event_transaction_id, f.amount_cents])).toEqual([["d", 200]]);
  });

  it("says why when the charge cannot be replayed, and reads nothing of another period or organization", async () => {
    const { charges } = await rederive([
      ask(feeIds, { charge_id: "ch_gone" }),
      ask(feeIds, { from: "2026-03-01T00:00:00.000Z", to: "2026-03-31T23:59:59.999Z" }),
    ]);
    expect(charges[0]).toMatchObject({
      error: "the charge ch_gone is not on the subscription's plan any more",
      fees: [],
    });
    expect(charges[1]).toMatchObject({ error: "", events_read: 0, fees: [] });
    const other = await rederive([ask(feeIds)], randomUUID());
    expect(other.charges[0]).toMatchObject({ fees: [] });
  });

  it("replays the fees on the charge version they were priced with, whatever the plan became since", async () => {
    const version = priced[0]!.charge_version!;
    expect(version).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(priced.map((f) => f.charge_version))).toEqual(new Set([version]));
    const [stored] = await store.chargeVersionsByIds([version]);
    expect(JSON.parse(stored!.json)).toMatchObject({
      v: 1,
      charge: { svc_id: "ch_api", properties: { pricing_group_keys: ["tenant"] } },
      currency: plan.amount_currency,
    });
    const original = priced.map((f) => [f.event_transaction_id, f.amount_cents]);
    const amountsOf = (c: { fees: Array<{ event_transaction_id: string; amount_cents: unknown }> }) =>
      c.fees.map((f) => [f.event_transaction_id, Number(f.amount_cents)]);
    try {
      // the charge's ranges doubled on the plan since
      const repriced = chargeView(metric, {
        ...charge,
        properties: { ...ranges("2", "1"), pricing_group_keys: ["tenant"] },
      });
      h.copies.subscriptions = (o: string, externalId: string) =>
        o === org && externalId === "sub_1"
          ? [{ ...copy, plan: { ...copy.plan, charges: [repriced] } } as SubscriptionCopy]
          : [];
      const [now, asPriced] = (await rederive([ask(feeIds), ask(feeIds, { charge_version: version })])).charges;
      expect(amountsOf(now!)).not.toEqual(original); // without the version: today's charge
      expect(asPriced).toMatchObject({ error: "", billable_metric_code: "api", events_read: 7 });
      expect(amountsOf(asPriced!)).toEqual(original);
      // the charge removed from the plan: still replayed on its version; an unknown version falls back to the copies
      h.copies.subscriptions = (o: string, externalId: string) =>
        o === org && externalId === "sub_1"
          ? [{ ...copy, plan: { ...copy.plan, charges: [] } } as SubscriptionCopy]
          : [];
      const [gone, unknown] = (
        await rederive([ask(feeIds, { charge_version: version }), ask(feeIds, { charge_version: "0".repeat(32) })])
      ).charges;
      expect(amountsOf(gone!)).toEqual(original);
      expect(unknown).toMatchObject({
        error: "the charge ch_api is not on the subscription's plan any more",
        fees: [],
      });
    } finally {
      h.copies.subscriptions = (o: string, externalId: string) => (o === org && externalId === "sub_1" ? [copy] : []);
    }
  });

  it("refuses an ask without its charge or with a malformed period (422)", async () => {
    await expect(rederive([ask(feeIds, { charge_id: "" })])).rejects.toMatchObject({
      kind: "unprocessable",
      details: { asks: ["value_is_invalid"] },
    });
    await expect(rederive([ask(feeIds, { from: "soon" })])).rejects.toMatchObject({
      kind: "unprocessable",
      details: { from: ["invalid_date"] },
    });
  });
});
