import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BillableMetric, UsageEvent } from "./aggregations/types";
import type { ChargeDefinition } from "./charge-fee";
import { type HighWaterMark, payInAdvanceFee } from "./pay-in-advance";
import { type AdvanceBucketState, advanceFeeStep, incrementalAdvance } from "./pay-in-advance-state";

const period = {
  from: new Date("2024-03-01T00:00:00Z"),
  to: new Date("2024-03-31T23:59:59Z"),
  periodDays: 31,
  timeZone: "UTC",
};
const ev = (i: number, properties: Record<string, unknown>): UsageEvent => ({
  transaction_id: `t${i}`,
  timestamp: new Date(Date.UTC(2024, 2, 1) + i * 3_600_000),
  properties,
});

/** The reference: each event priced over every event before it (what the estimate does). */
function byEvents(charge: ChargeDefinition, metric: BillableMetric, events: UsageEvent[]) {
  let mark: HighWaterMark | null = null;
  return events.map((event, i) => {
    const fee = payInAdvanceFee({
      charge,
      metric,
      event,
      periodEvents: events.slice(0, i + 1),
      highWaterMark: mark,
      currency: "EUR",
      period,
      premium: true,
    });
    mark = fee.high_water_mark;
    return fee;
  });
}

/** The same events through the stored state, one step each (the state JSON-roundtripped as a service stores it). */
function byState(charge: ChargeDefinition, metric: BillableMetric, events: UsageEvent[]) {
  let state: AdvanceBucketState | null = null;
  return events.map((event) => {
    const step = advanceFeeStep({ charge, metric, event, state, currency: "EUR", period, premium: true });
    state = JSON.parse(JSON.stringify(step.state)) as AdvanceBucketState;
    return step.fee;
  });
}

const strip = (fees: ReturnType<typeof byEvents>) => fees.map(({ amount_details: _d, ...f }) => f);

const charges: ChargeDefinition[] = [
  { charge_model: "standard", properties: { amount: "1.25" } },
  { charge_model: "package", properties: { amount: "1.5", package_size: 10, free_units: 5 } },
  {
    charge_model: "graduated",
    properties: {
      graduated_ranges: [
        { from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "5" },
        { from_value: 11, to_value: null, per_unit_amount: "0.5", flat_amount: "3" },
      ],
    },
  },
  { charge_model: "percentage", properties: { rate: "2", fixed_amount: "0.5", free_units_per_events: 2 } },
];

describe("advanceFeeStep", () => {
  it("gives the fees of payInAdvanceFee for sum_agg, count_agg and unique_count_agg (any events, every model)", () => {
    const sum: BillableMetric = { aggregation_type: "sum_agg", field_name: "value" };
    const count: BillableMetric = { aggregation_type: "count_agg" };
    const unique: BillableMetric = { aggregation_type: "unique_count_agg", field_name: "seat" };
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            value: fc.integer({ min: -20, max: 30 }),
            seat: fc.constantFrom("a", "b", "c", "d"),
            remove: fc.boolean(),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        fc.constantFrom(...charges),
        (rows, charge) => {
          const events = rows.map((r, i) =>
            ev(i, { value: r.value, seat: r.seat, ...(r.remove ? { operation_type: "remove" } : {}) }),
          );
          for (const metric of [sum, count])
            expect(strip(byState(charge, metric, events))).toEqual(strip(byEvents(charge, metric, events)));
          if (charge.charge_model !== "percentage")
            expect(strip(byState(charge, unique, events))).toEqual(strip(byEvents(charge, unique, events)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("keeps the events only for models that need them", () => {
    const sum: BillableMetric = { aggregation_type: "sum_agg", field_name: "value" };
    expect(incrementalAdvance(charges[0]!, sum)).toBe(true);
    expect(incrementalAdvance(charges[3]!, sum)).toBe(false);
    const step = advanceFeeStep({
      charge: charges[0]!,
      metric: sum,
      event: ev(0, { value: 4 }),
      state: null,
      currency: "EUR",
    });
    expect(step.state).toEqual({ mark: { current: "4.0", max: "4.0" }, units: "4.0", events_count: 1 });
    expect(step.fee.amount_cents).toBe(500);
  });

  it("prorated seats: a seat added on the 16th of a 30-day month pays 15/30, a removal refunds nothing and re-adding is free", () => {
    const seats: BillableMetric = { aggregation_type: "unique_count_agg", field_name: "seat" };
    const charge: ChargeDefinition = { charge_model: "standard", properties: { amount: "30" }, prorated: true };
    const june = {
      from: new Date("2024-06-01T00:00:00Z"),
      to: new Date("2024-06-30T23:59:59Z"),
      periodDays: 30,
      timeZone: "UTC",
    };
    const at = (day: number, seat: string, op?: string): UsageEvent => ({
      timestamp: `2024-06-${String(day).padStart(2, "0")}T10:00:00Z`,
      properties: { seat, ...(op ? { operation_type: op } : {}) },
    });
    let state: AdvanceBucketState | null = null;
    const cents = [at(1, "a"), at(16, "b"), at(20, "b", "remove"), at(25, "b")].map((event) => {
      const step = advanceFeeStep({ charge, metric: seats, event, state, currency: "EUR", period: june });
      state = step.state;
      return step.fee.amount_cents;
    });
    expect(cents).toEqual([3000, 1500, 0, 0]);
  });
});
