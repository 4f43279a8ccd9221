import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BillableMetric, UsageEvent } from "./aggregations/types";
import { computeChargeFee, type ChargeDefinition } from "./charge-fee";
import { aggregate } from "./aggregations/factory";
import { type HighWaterMark, payInAdvanceFee } from "./pay-in-advance";

const sum: BillableMetric = { aggregation_type: "sum_agg", field_name: "value" };
const ev = (i: number, value: number | string, extra: Record<string, unknown> = {}): UsageEvent => ({
  transaction_id: `t${i}`,
  timestamp: new Date(Date.UTC(2024, 2, 1) + i * 60_000),
  properties: { value, ...extra },
});

/** Bills events one by one, carrying the high-water mark like the usage service would. */
function billSequentially(charge: ChargeDefinition, metric: BillableMetric, events: UsageEvent[], currency = "EUR") {
  let mark: HighWaterMark | null = null;
  return events.map((event, i) => {
    const fee = payInAdvanceFee({
      charge,
      metric,
      event,
      periodEvents: events.slice(0, i + 1),
      highWaterMark: mark,
      currency,
    });
    mark = fee.high_water_mark;
    return fee;
  });
}

const graduated: ChargeDefinition = {
  charge_model: "graduated",
  properties: {
    graduated_ranges: [
      { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "5" },
      { from_value: 11, to_value: 20, per_unit_amount: "0.5", flat_amount: "3" },
      { from_value: 21, to_value: null, per_unit_amount: "0.25", flat_amount: "0" },
    ],
  },
};

describe("pay-in-advance fee", () => {
  it("bills only what raises the period high-water mark", () => {
    const charge: ChargeDefinition = { charge_model: "standard", properties: { amount: "1" } };
    const fees = billSequentially(charge, sum, [ev(0, 10), ev(1, -5), ev(2, 3), ev(3, 5)]);
    expect(fees.map((f) => [f.amount_cents, f.units])).toEqual([
      [1000, "10.0"],
      [0, "0.0"],
      [0, "3.0"],
      [300, "3.0"],
    ]);
    expect(fees[3]?.high_water_mark).toEqual({ current: "13.0", max: "13.0" });
  });

  it("charges the tier-1 flat fee with the first event", () => {
    const fees = billSequentially(graduated, sum, [ev(0, 1), ev(1, 1)]);
    expect(fees.map((f) => f.amount_cents)).toEqual([600, 100]);
  });

  it("charges a started package on the event that starts it (0 + 0 + 150 + 200 style deltas)", () => {
    const charge: ChargeDefinition = {
      charge_model: "package",
      properties: { amount: "1.5", package_size: 10, free_units: 10 },
    };
    const fees = billSequentially(charge, sum, [ev(0, 5), ev(1, 5), ev(2, 1), ev(3, 10)]);
    expect(fees.map((f) => f.amount_cents)).toEqual([0, 0, 150, 150]);
  });

  it("uses 1 per event for count_agg", () => {
    const charge: ChargeDefinition = { charge_model: "standard", properties: { amount: "0.2" } };
    const fees = billSequentially(charge, { aggregation_type: "count_agg" }, [ev(0, 0), ev(1, 0)]);
    expect(fees.map((f) => [f.amount_cents, f.units])).toEqual([
      [20, "1.0"],
      [20, "1.0"],
    ]);
  });

  it("bills a unique value once per period, even when removed and re-added", () => {
    const metric: BillableMetric = { aggregation_type: "unique_count_agg", field_name: "user" };
    const charge: ChargeDefinition = { charge_model: "standard", properties: { amount: "5" } };
    const events = [
      ev(0, 0, { user: "a" }),
      ev(1, 0, { user: "a", operation_type: "remove" }),
      ev(2, 0, { user: "a" }),
      ev(3, 0, { user: "b" }),
    ];
    expect(billSequentially(charge, metric, events).map((f) => f.amount_cents)).toEqual([500, 0, 0, 500]);
  });

  it("gives percentage free units and fixed fees per event", () => {
    const charge: ChargeDefinition = {
      charge_model: "percentage",
      properties: { rate: "10", fixed_amount: "1", free_units_per_events: 1 },
    };
    const fees = billSequentially(charge, sum, [ev(0, 100), ev(1, 100)]);
    expect(fees.map((f) => f.amount_cents)).toEqual([0, 1100]);
    expect(fees[1]?.amount_details).toMatchObject({ paid_events: "1.0", fixed_fee_total_amount: "1.0" });
  });

  it("estimates a non-stored event against the stored ones", () => {
    const stored = [ev(0, 8)];
    const estimate = payInAdvanceFee({
      charge: graduated,
      metric: sum,
      event: ev(1, 4),
      periodEvents: stored,
      highWaterMark: { current: "8", max: "8" },
      currency: "EUR",
      persisted: false,
    });
    // 8 -> 12 units: 2 × 1 + 2 × 0.5 + 3 flat
    expect(estimate.amount_cents).toBe(600);
  });
});

describe("pay-in-advance property: per-event fees add up to the in-arrears fee", () => {
  const charges: ChargeDefinition[] = [
    { charge_model: "standard", properties: { amount: "0.37" } },
    { charge_model: "package", properties: { amount: "2.5", package_size: 7, free_units: 3 } },
    graduated,
  ];
  for (const charge of charges) {
    it(`holds for ${charge.charge_model}`, () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 12 }), (values) => {
          const events = values.map((v, i) => ev(i, v));
          const advance = billSequentially(charge, sum, events).reduce((s, f) => s + Number(f.precise_amount_cents), 0);
          const arrears = computeChargeFee({ charge, aggregation: aggregate(sum, events), currency: "EUR" });
          expect(advance).toBeCloseTo(Number(arrears.precise_amount_cents), 8);
        }),
        { numRuns: 200 },
      );
    });
  }
});
