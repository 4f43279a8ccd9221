import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@billing/clock";
import { Rpc, usageEventFromProto, type UsageAuditRpc } from "@billing/contracts";
import type { HandlerRequestOf } from "@billing/grpc";
import { AdvanceStore } from "../src/persistence/advance-store";
import { chargeSnapshotMessage } from "../src/grpc/charge-snapshot-messages";
import { usageAuditHandlers } from "../src/grpc/usage-audit-handlers";
import { chargeSnapshot } from "../src/use-cases/audit/charge-snapshot";
import { received, startUsageHarness, type UsageHarness } from "./usage-harness";

// UsageAuditService.RederiveCharges through the wiring, on the real NATS and MongoDB test servers:
// events ingested, stored in pages, read back raw and priced from a charge snapshot alone.
let h: UsageHarness;
let readThroughSeq = 0;
const org = randomUUID();
const clock = new ManualClock("2026-02-01T00:00:00Z");
const FEB = Date.parse("2026-02-01T00:00:00Z");
const DAY = 86_400_000;

const charge = {
  svc_id: "ch_storage",
  svc_billable_metric_id: "bm_storage",
  billable_metric_code: "storage",
  charge_model: "standard",
  invoiceable: true,
  pay_in_advance: false,
  prorated: false,
  min_amount_cents: 0,
  invoice_display_name: null,
  regroup_paid_fees: null,
  taxes: [],
  properties: { amount: "0.1" },
  filters: [{ invoice_display_name: "EU", properties: { amount: "0.2" }, values: { region: ["eu"] } }],
};

const handlers = () =>
  usageAuditHandlers({
    collections: h.collections,
    copies: h.copies,
    store: new AdvanceStore(h.connection),
    storedThroughNow: h.parts.storedThroughNow,
  });
/** RederiveCharges through the handler, its answer as the invoicing service receives it. */
const rederive = (request: HandlerRequestOf<UsageAuditRpc, "RederiveCharges">) =>
  received(Rpc.usageAudit, "RederiveCharges", handlers().RederiveCharges(request, {} as never));
/** The ChargeSnapshot ChargeUsage answers for the storage charge (with a consistent read's `readThroughSeq`), as invoicing receives and keeps it. */
const snapshot = async (readThroughSeq?: number) => {
  const metric = h.copies.metricByCode(org, "storage")!;
  const message = chargeSnapshotMessage(
    chargeSnapshot({
      charge: charge as never,
      metric,
      currency: "EUR",
      eventsFrom: new Date(FEB),
      timeZone: "UTC",
      query: { from: new Date(FEB), to: new Date(FEB + 28 * DAY - 1), periodDays: 28 },
    }),
    readThroughSeq,
  );
  const answer = await received(
    Rpc.chargeUsage,
    "ChargeUsage",
    Promise.resolve({ periods: [{ subscription_id: "sub", found: true, fees: [{ charge_snapshot: message }] }] }),
  );
  return answer.periods[0]!.fees[0]!.charge_snapshot!;
};

beforeAll(async () => {
  h = await startUsageHarness("usage_audit", {}, clock);
  h.copies.addMetric(org, {
    code: "storage",
    aggregation_type: "sum_agg",
    field_name: "gb",
    filters: [{ key: "region", values: ["eu", "us"] }],
  });
  // February's usage, acknowledged on Feb 20: 100 gb in eu, 30 + 20 gb elsewhere, and an event of March (outside the period)
  clock.set("2026-02-20T00:00:00Z");
  await h.ingest(org, [
    {
      transaction_id: "a",
      external_subscription_id: "sub_1",
      code: "storage",
      timestamp_ms: FEB + DAY,
      properties_json: '{"gb":100,"region":"eu"}',
    },
    {
      transaction_id: "b",
      external_subscription_id: "sub_1",
      code: "storage",
      timestamp_ms: FEB + 2 * DAY,
      properties_json: '{"gb":30,"region":"us"}',
    },
    {
      transaction_id: "c",
      external_subscription_id: "sub_1",
      code: "storage",
      timestamp_ms: FEB + 3 * DAY,
      properties_json: '{"gb":20}',
    },
    {
      transaction_id: "d",
      external_subscription_id: "sub_1",
      code: "storage",
      timestamp_ms: FEB + 29 * DAY,
      properties_json: '{"gb":999}',
    },
  ]);
  readThroughSeq = await h.parts.storedThroughSeq();
  // acknowledged on Mar 2, after February was billed (Mar 1): late
  clock.set("2026-03-02T00:00:00Z");
  await h.ingest(org, [
    {
      transaction_id: "late",
      external_subscription_id: "sub_1",
      code: "storage",
      timestamp_ms: FEB + 10 * DAY,
      properties_json: '{"gb":7,"region":"eu"}',
    },
  ]);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("RederiveCharges", () => {
  it("prices the snapshot from the raw events acknowledged by billed_through and lists the later ones as late", async () => {
    const { charges } = await rederive({
      organization_id: org,
      external_subscription_id: "sub_1",
      snapshots: [await snapshot()],
      billed_through: "2026-03-01T00:00:00.000Z",
      late_events_limit: 0,
    });
    expect(charges).toHaveLength(1);
    const [c] = charges;
    expect(c).toMatchObject({ events_read: 4, late_events_count: 1 });
    // EU: 100 gb × 0.20 = 20.00; the default bucket: 30 + 20 gb × 0.10 = 5.00 (the late 7 gb are not priced)
    expect(c!.fees.map((f) => [f.charge_filter_index ?? null, f.units, f.events_count, f.amount_cents])).toEqual([
      [0, "100.0", 1, 2_000],
      [null, "50.0", 2, 500],
    ]);
    expect(c!.late_events.map(usageEventFromProto)).toEqual([
      expect.objectContaining({
        transaction_id: "late",
        timestamp: new Date(FEB + 10 * DAY).toISOString(),
        created_at: "2026-03-02T00:00:00.000Z",
        properties: { gb: 7, region: "eu" },
      }),
    ]);
  });

  it("tells late events by the ingest sequence the invoice's read was complete through, whatever their business time", async () => {
    // the snapshot's sequence wins over billed_through (here: an instant after every event)
    const { charges } = await rederive({
      organization_id: org,
      external_subscription_id: "sub_1",
      snapshots: [await snapshot(readThroughSeq)],
      billed_through: "2030-01-01T00:00:00.000Z",
      late_events_limit: 0,
    });
    expect(charges[0]).toMatchObject({ events_read: 4, late_events_count: 1 });
    expect(charges[0]!.fees.map((f) => f.amount_cents)).toEqual([2_000, 500]);
    expect(charges[0]!.late_events[0]).toMatchObject({ transaction_id: "late" });
  });

  it("prices every stored event of the period when no billed_through is given, and lists none as late", async () => {
    const { charges } = await rederive({
      organization_id: org,
      external_subscription_id: "sub_1",
      snapshots: [await snapshot()],
      late_events_limit: 0,
    });
    expect(charges[0]!.fees.map((f) => [f.charge_filter_index ?? null, f.amount_cents])).toEqual([
      [0, 2_140],
      [null, 500],
    ]);
    expect(charges[0]!.late_events_count).toBe(0);
  });

  it("refuses a malformed snapshot (422), pricing nothing", async () => {
    await expect(
      rederive({
        organization_id: org,
        external_subscription_id: "sub_1",
        snapshots: [{ ...(await snapshot()), v: 2 }],
        late_events_limit: 0,
      }),
    ).rejects.toMatchObject({ kind: "unprocessable", details: { snapshots: ["value_is_invalid"] } });
  });

  it("sees nothing of another organization's events", async () => {
    const { charges } = await rederive({
      organization_id: randomUUID(),
      external_subscription_id: "sub_1",
      snapshots: [await snapshot()],
      late_events_limit: 0,
    });
    expect(charges[0]).toMatchObject({ events_read: 0, late_events_count: 0 });
    expect(charges[0]!.fees.every((f) => f.amount_cents === 0)).toBe(true);
  });
});
