import { describe, expect, it } from "vitest";
import { chargeSnapshot, parseChargeSnapshot } from "./charge-snapshot";

const charge = { svc_id: "ch", billable_metric_code: "calls", charge_model: "standard", properties: { amount: "1" }, filters: [] } as never;
const metric = { code: "calls", aggregation_type: "count_agg", filters: [] } as never;
const snapshot = chargeSnapshot({
  charge, metric, currency: "EUR", eventsFrom: new Date("2024-01-01T00:00:00Z"), timeZone: "UTC",
  query: { from: new Date("2024-01-01T00:00:00Z"), to: new Date("2024-01-31T23:59:59.999Z"), periodDays: 31 },
});

describe("charge snapshots", () => {
  it("keeps what a fee was priced from, and reads it back", () => {
    expect(snapshot).toMatchObject({ v: 1, from: "2024-01-01T00:00:00.000Z", to: "2024-01-31T23:59:59.999Z", period_days: 31, billed_days: null, time_zone: "UTC" });
    expect(parseChargeSnapshot(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it("accepts a snapshot without metric (the current one is filled in) and refuses malformed ones", () => {
    const { metric: _m, ...bare } = snapshot;
    expect(parseChargeSnapshot(JSON.stringify(bare))).toEqual(bare);
    for (const bad of ["not json", "null", "{}", JSON.stringify({ ...snapshot, v: 2 }), JSON.stringify({ ...snapshot, to: "soon" }),
      JSON.stringify({ ...snapshot, period_days: 0 }), JSON.stringify({ ...snapshot, metric: null }), JSON.stringify({ ...snapshot, charge: { svc_id: "x" } })]) {
      expect(parseChargeSnapshot(bad), bad).toBeNull();
    }
  });
});
