import { describe, expect, it } from "vitest";
import { estimateEventFee } from "./estimate";

const ev = (minute: number, properties: Record<string, unknown>) => ({
  timestamp: new Date(Date.UTC(2024, 2, 1, 0, minute)),
  properties,
});

describe("estimateEventFee", () => {
  const charge = {
    charge_model: "standard" as const,
    properties: { amount: "1" },
    filters: [{ values: { region: ["eu"] }, properties: { amount: "2" } }],
  };
  const metric = { aggregation_type: "sum_agg" as const, field_name: "gb" };

  it("prices the event in its filter, above the high-water mark, with taxes", () => {
    const fee = estimateEventFee({
      charge,
      metric,
      event: ev(10, { gb: 5, region: "eu" }),
      periodEvents: [ev(1, { gb: 3, region: "eu" }), ev(2, { gb: 100, region: "us" })],
      highWaterMark: { current: "3", max: "3" },
      currency: "EUR",
      taxes: [{ code: "vat", rate: "20" }],
    });
    expect(fee).toMatchObject({
      charge_filter_index: 0,
      units: "5.0",
      events_count: 1,
      amount_cents: 1000,
      taxes_amount_cents: 200,
      taxes_rate: 20,
      total_amount_cents: 1200,
      pay_in_advance: true,
    });
  });

  it("charges nothing for units already paid in the period", () => {
    const fee = estimateEventFee({
      charge,
      metric,
      event: ev(10, { gb: 2 }),
      periodEvents: [ev(1, { gb: 10 }), ev(2, { gb: -5 })],
      highWaterMark: { current: "5", max: "10" },
      currency: "EUR",
    });
    expect(fee).toMatchObject({ charge_filter_index: null, amount_cents: 0, units: "2.0" });
  });
});
