import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregate } from "./aggregations/factory";
import type { BillableMetric, UsageEvent } from "./aggregations/types";
import { computeChargeFees, computeChargeFeesFromUnits, pricedFromUnits, type UsageCharge } from "./charge-fees";
import { ZERO } from "./decimal";

const period = { from: "2024-03-01T00:00:00Z", to: "2024-03-31T23:59:59.999Z", periodDays: 31 };
const MODELS: Array<Pick<UsageCharge, "charge_model" | "properties">> = [
  { charge_model: "standard", properties: { amount: "0.0125" } },
  {
    charge_model: "graduated",
    properties: {
      graduated_ranges: [
        { from_value: 0, to_value: 10, per_unit_amount: "0.5", flat_amount: "1" },
        { from_value: 11, to_value: null, per_unit_amount: "0.25", flat_amount: "0" },
      ],
    },
  },
  {
    charge_model: "volume",
    properties: {
      volume_ranges: [
        { from_value: 0, to_value: 100, per_unit_amount: "0.3", flat_amount: "2" },
        { from_value: 101, to_value: null, per_unit_amount: "0.2", flat_amount: "0" },
      ],
    },
  },
  { charge_model: "package", properties: { amount: "5", package_size: 10, free_units: 3 } },
];
const METRICS: BillableMetric[] = [
  { aggregation_type: "count_agg" },
  { aggregation_type: "sum_agg", field_name: "gb" },
  { aggregation_type: "sum_agg", field_name: "gb", rounding_function: "ceil", rounding_precision: 1 },
  { aggregation_type: "max_agg", field_name: "gb" },
];

// values as clients send them: integers, decimals as numbers or text, and non-numeric ones (ignored)
const value = fc.oneof(
  fc.integer({ min: -5, max: 1_000 }),
  fc.double({ min: 0, max: 500, noNaN: true }).map((d) => Math.round(d * 1000) / 1000),
  fc.integer({ min: 0, max: 99_999 }).map((n) => String(n / 100)),
  fc.constant("n/a"),
  fc.constant(null),
);
const events = fc.array(fc.record({ day: fc.integer({ min: 1, max: 31 }), gb: value }), { maxLength: 60 }).map((list) =>
  list.map(({ day, gb }): UsageEvent => ({
    timestamp: `2024-03-${String(day).padStart(2, "0")}T08:00:00Z`,
    properties: gb === null ? {} : { gb },
  })),
);

describe("computeChargeFeesFromUnits", () => {
  it("prices a charge from its aggregated units and count exactly as computeChargeFees does from the events", () => {
    fc.assert(
      fc.property(
        events,
        fc.constantFrom(...MODELS),
        fc.constantFrom(...METRICS),
        fc.integer({ min: 0, max: 5_000 }),
        (list, model, metric, minimum) => {
          const charge: UsageCharge = { ...model, min_amount_cents: minimum || null };
          expect(pricedFromUnits(charge, metric)).toBe(true);
          const fromEvents = computeChargeFees({ charge, metric, events: list, currency: "EUR", period });
          const aggregated = aggregate(metric, list, {
            from: period.from,
            to: period.to,
            periodDays: period.periodDays,
          });
          const fromUnits = computeChargeFeesFromUnits({
            charge,
            metric,
            units: aggregated.units,
            eventsCount: aggregated.eventsCount,
            currency: "EUR",
            period,
          });
          expect(fromUnits).toEqual(fromEvents);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is for the charges whose fees need nothing of the events but their units: not filters, groups, proration, advance, recurring metrics or per-event models", () => {
    const sum: BillableMetric = { aggregation_type: "sum_agg", field_name: "gb" };
    const standard: UsageCharge = { charge_model: "standard", properties: { amount: "1" } };
    expect(pricedFromUnits(standard, sum)).toBe(true);
    expect(pricedFromUnits({ ...standard, filters: [{ values: { region: ["eu"] }, properties: {} }] }, sum)).toBe(
      false,
    );
    expect(pricedFromUnits({ ...standard, properties: { amount: "1", pricing_group_keys: ["region"] } }, sum)).toBe(
      false,
    );
    expect(pricedFromUnits({ ...standard, prorated: true }, sum)).toBe(false);
    expect(pricedFromUnits({ ...standard, pay_in_advance: true }, sum)).toBe(false);
    expect(pricedFromUnits(standard, { ...sum, recurring: true })).toBe(false);
    expect(pricedFromUnits(standard, { aggregation_type: "unique_count_agg", field_name: "gb" })).toBe(false);
    expect(pricedFromUnits({ charge_model: "percentage", properties: { rate: "1" } }, sum)).toBe(false);
    expect(() =>
      computeChargeFeesFromUnits({
        charge: { charge_model: "percentage", properties: { rate: "1" } },
        metric: sum,
        units: ZERO,
        eventsCount: 0,
        currency: "EUR",
        period,
      }),
    ).toThrow(RangeError);
  });
});
