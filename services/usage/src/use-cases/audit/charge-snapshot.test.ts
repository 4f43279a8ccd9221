import { join } from "node:path";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import type { UsageMessages } from "@billing/contracts";
import type { ChargeCopy, MetricCopy } from "../../domain/read-copies";
import { chargeSnapshotMessage, chargeSnapshotOf } from "../../grpc/charge-snapshot-messages";
import { chargeSnapshot } from "./charge-snapshot";

const charge: ChargeCopy = {
  svc_id: "ch",
  svc_billable_metric_id: "bm",
  billable_metric_code: "calls",
  code: null,
  charge_model: "standard",
  pay_in_advance: false,
  prorated: false,
  min_amount_cents: 100,
  regroup_paid_fees: null,
  invoice_display_name: null,
  properties: { amount: "1", pricing_group_keys: ["team"] },
  filters: [{ invoice_display_name: null, properties: { amount: "2" }, values: { region: ["eu"] } }],
  taxes: [],
  invoiceable: true,
  created_at: null,
};
const metric: MetricCopy = {
  organization_id: "org",
  svc_id: "bm",
  code: "calls",
  name: "Calls",
  aggregation_type: "sum_agg",
  field_name: "n",
  recurring: false,
  rounding_function: null,
  rounding_precision: null,
  weighted_interval: null,
  expression: null,
  filters: [{ key: "region", values: ["eu", "us"] }],
  description: null,
  created_at: "2024-01-01T00:00:00.000Z",
  updated_at: "2024-01-01T00:00:00.000Z",
  deleted_at: null,
};
const snapshot = chargeSnapshot({
  charge,
  metric,
  currency: "EUR",
  eventsFrom: new Date("2024-01-01T00:00:00Z"),
  timeZone: "UTC",
  query: { from: new Date("2024-01-01T00:00:00Z"), to: new Date("2024-01-31T23:59:59.999Z"), periodDays: 31 },
});

// encoded and decoded as the gRPC calls do (proto-loader's options)
const PROTO = join(__dirname, "../../../../../proto");
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(PROTO, target);
root.loadSync("billing/usage/v1/charge_usage.proto", { keepCase: true });
const type = root.lookupType("billing.usage.v1.ChargeSnapshot");
const wire = (value: UsageMessages.ChargeSnapshot): UsageMessages.ChargeSnapshot__Output =>
  type.toObject(type.decode(type.encode(type.fromObject(value as Record<string, unknown>)).finish()), {
    longs: Number,
    enums: String,
    defaults: true,
    arrays: true,
    objects: true,
    oneofs: true,
  }) as UsageMessages.ChargeSnapshot__Output;

describe("charge snapshots", () => {
  it("keeps what a fee was priced from, and reads it back from the message", () => {
    expect(snapshot).toMatchObject({
      v: 1,
      from: "2024-01-01T00:00:00.000Z",
      to: "2024-01-31T23:59:59.999Z",
      period_days: 31,
      billed_days: null,
      time_zone: "UTC",
    });
    expect(chargeSnapshotOf(wire(chargeSnapshotMessage(snapshot)))).toEqual(snapshot);
    expect(chargeSnapshotOf(wire(chargeSnapshotMessage(snapshot, 42)))).toEqual({ ...snapshot, read_through_seq: 42 });
  });

  it("accepts a snapshot without metric (the current one is filled in) and refuses malformed ones", () => {
    const { metric: _m, ...bare } = chargeSnapshotMessage(snapshot);
    const { metric: _n, ...expected } = snapshot;
    expect(chargeSnapshotOf(wire(bare))).toEqual(expected);
    const good = chargeSnapshotMessage(snapshot);
    for (const bad of [
      {},
      { ...good, v: 2 },
      { ...good, to: "soon" },
      { ...good, period_days: 0 },
      { ...good, charge: null },
      { ...good, metric: { ...good.metric, code: "" } },
    ]) {
      expect(chargeSnapshotOf(wire(bad as UsageMessages.ChargeSnapshot)), JSON.stringify(bad)).toBeNull();
    }
  });
});
