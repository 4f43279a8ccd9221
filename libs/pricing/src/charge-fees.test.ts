import { describe, expect, it } from "vitest";
import type { UsageEvent } from "./aggregations/types";
import { computeChargeFees } from "./charge-fees";

const ev = (day: number, properties: Record<string, unknown>): UsageEvent => ({
  timestamp: `2024-03-${String(day).padStart(2, "0")}T12:00:00Z`,
  properties,
  precise_total_amount_cents: properties["cents"] as string | undefined,
});
const period = { from: "2024-03-01T00:00:00Z", to: "2024-03-31T23:59:59.999Z", periodDays: 31 };
const metric = {
  aggregation_type: "sum_agg" as const,
  field_name: "gb",
  filters: [{ key: "region", values: ["eu", "us"] }],
};

describe("computeChargeFees", () => {
  const events = [ev(2, { gb: 10, region: "eu" }), ev(3, { gb: 5, region: "us" }), ev(4, { gb: 1 })];

  it("prices each filter with its own properties and the rest with the charge's", () => {
    const charge = {
      charge_model: "standard" as const,
      properties: { amount: "1" },
      filters: [{ values: { region: ["eu"] }, properties: { amount: "2" } }],
    };
    const { fees } = computeChargeFees({ charge, metric, events, currency: "EUR", period });
    expect(fees.map((f) => [f.charge_filter_index, f.units, f.amount_cents])).toEqual([
      [0, "10.0", 2000],
      [null, "6.0", 600],
    ]);
  });

  it("restarts tiers per pricing group", () => {
    const charge = {
      charge_model: "graduated" as const,
      properties: {
        pricing_group_keys: ["region"],
        graduated_ranges: [
          { from_value: 0, to_value: 5, per_unit_amount: "1", flat_amount: "0" },
          { from_value: 6, to_value: null, per_unit_amount: "0.5", flat_amount: "0" },
        ],
      },
    };
    const { fees } = computeChargeFees({ charge, metric, events, currency: "EUR", period });
    expect(fees.map((f) => [f.grouped_by["region"], f.amount_cents])).toEqual([
      ["eu", 750],
      ["us", 500],
      [null, 100],
    ]);
  });

  it("adds a true-up fee below the prorated spending minimum", () => {
    const charge = { charge_model: "standard" as const, properties: { amount: "1" }, min_amount_cents: 3100 };
    const full = computeChargeFees({ charge, metric, events, currency: "EUR", period });
    expect(full.true_up_fee).toMatchObject({ amount_cents: 1500, units: "1.0", events_count: 0 });
    const partial = computeChargeFees({
      charge,
      metric,
      events,
      currency: "EUR",
      period: { ...period, billedDays: 15 },
    });
    expect(partial.true_up_fee).toBeNull();
    expect(
      computeChargeFees({ charge, metric, events, currency: "EUR", period, withTrueUp: false }).true_up_fee,
    ).toBeNull();
  });

  it("bills dynamic charges from the events' own amounts", () => {
    const charge = { charge_model: "dynamic" as const, properties: {} };
    const priced = [ev(2, { gb: 1, cents: "1234.56" })];
    expect(computeChargeFees({ charge, metric, events: priced, currency: "EUR", period }).fees[0]?.amount_cents).toBe(
      1235,
    );
  });
});

describe("dynamic charges count only in-period events (billing-rules §1.7)", () => {
  const charge = { charge_model: "dynamic" as const, properties: {} };
  const events = [
    { timestamp: "2024-02-20T12:00:00Z", properties: { gb: 5 }, precise_total_amount_cents: "5000" },
    { timestamp: "2024-03-10T12:00:00Z", properties: { gb: 1 }, precise_total_amount_cents: "1234.56" },
    { timestamp: "2024-04-01T12:00:00Z", properties: { gb: 2 }, precise_total_amount_cents: "700" },
  ];

  it("ignores amounts and units carried by a recurring metric", () => {
    const recurring = { ...metric, recurring: true };
    const fee = computeChargeFees({ charge, metric: recurring, events, currency: "EUR", period }).fees[0]!;
    expect([fee.amount_cents, fee.units, fee.events_count]).toEqual([1235, "1.0", 1]);
  });

  it("ignores events passed in from earlier or later periods", () => {
    const fee = computeChargeFees({ charge, metric, events, currency: "EUR", period }).fees[0]!;
    expect([fee.amount_cents, fee.precise_amount_cents, fee.units]).toEqual([1235, "1234.56", "1.0"]);
  });

  it("is zero when the period has no event", () => {
    const fee = computeChargeFees({
      charge,
      metric: { ...metric, recurring: true },
      events: events.slice(0, 1),
      currency: "EUR",
      period,
    }).fees[0]!;
    expect([fee.amount_cents, fee.units]).toEqual([0, "0.0"]);
  });
});
