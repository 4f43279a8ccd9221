import { describe, expect, it } from "vitest";
import { storedChargeSnapshot } from "./charge-snapshot";

const TEXT = {
  v: 1,
  charge: {
    svc_id: "ch_1",
    svc_billable_metric_id: "bm_1",
    billable_metric_code: "calls",
    code: null,
    charge_model: "standard",
    pay_in_advance: false,
    invoiceable: true,
    prorated: false,
    min_amount_cents: 0,
    regroup_paid_fees: null,
    invoice_display_name: null,
    properties: { amount: "1" },
    filters: [{ invoice_display_name: null, properties: { amount: "2" }, values: { region: ["eu"] } }],
    taxes: [],
    created_at: null,
  },
  metric: {
    svc_id: "bm_1",
    name: "Calls",
    code: "calls",
    description: null,
    aggregation_type: "count_agg",
    field_name: null,
    recurring: false,
    rounding_function: null,
    rounding_precision: null,
    weighted_interval: null,
    expression: null,
    filters: [],
    created_at: "2024-01-01T00:00:00.000Z",
    updated_at: "2024-01-01T00:00:00.000Z",
    deleted_at: null,
    organization_id: "org",
  },
  currency: "EUR",
  from: "2024-01-01T00:00:00.000Z",
  to: "2024-01-31T23:59:59.999Z",
  events_from: "2024-01-01T00:00:00.000Z",
  period_days: 31,
  billed_days: null,
  time_zone: "UTC",
  read_through_seq: 42,
};

describe("stored charge snapshots", () => {
  it("reads a snapshot kept as JSON text before messages into the message", () => {
    const read = storedChargeSnapshot(JSON.stringify(TEXT));
    expect(read).toMatchObject({
      chargeId: "ch_1",
      billableMetricCode: "calls",
      from: TEXT.from,
      to: TEXT.to,
      readThroughSeq: 42,
    });
    expect(read!.message).toMatchObject({
      v: 1,
      currency: "EUR",
      period_days: 31,
      time_zone: "UTC",
      charge: {
        svc_id: "ch_1",
        charge_model: "standard",
        properties: { amount: "1" },
        filters: [{ values: { region: { values: ["eu"] } } }],
      },
      metric: { code: "calls", aggregation_type: "count_agg" },
    });
    expect(read!.message.billed_days).toBeUndefined();
  });

  it("reads a stored message as it is, and nothing from what names no charge or period", () => {
    const message = {
      v: 1,
      charge: { svc_id: "ch_2", billable_metric_code: "gb" },
      from: TEXT.from,
      to: TEXT.to,
    } as never;
    expect(storedChargeSnapshot(message)).toMatchObject({
      chargeId: "ch_2",
      billableMetricCode: "gb",
      readThroughSeq: undefined,
      message,
    });
    for (const bad of [
      "not json",
      "{}",
      JSON.stringify({ ...TEXT, v: 2 }),
      JSON.stringify({ ...TEXT, to: "soon" }),
      undefined,
      "",
    ]) {
      expect(storedChargeSnapshot(bad), String(bad)).toBeNull();
    }
  });
});
