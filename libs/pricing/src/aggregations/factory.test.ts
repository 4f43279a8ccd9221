import { describe, expect, it } from "vitest";
import { aggregate } from "./factory";
import type { BillableMetric, UsageEvent } from "./types";

const ev = (timestamp: string, properties: Record<string, unknown>): UsageEvent => ({ timestamp, properties });
const sum: BillableMetric = { aggregation_type: "sum_agg", field_name: "value" };
const period = { from: "2024-03-01T00:00:00Z", to: "2024-03-31T23:59:59.999Z" };

describe("aggregate", () => {
  const events = [
    ev("2024-02-20T10:00:00Z", { value: 100 }),
    ev("2024-03-02T10:00:00Z", { value: "10" }),
    ev("2024-03-05T10:00:00Z", { value: 2.5 }),
    ev("2024-03-06T10:00:00Z", { value: "abc" }),
    ev("2024-03-07T10:00:00Z", {}),
    ev("2024-04-01T00:00:00Z", { value: 1000 }),
  ];

  it("counts events in the period", () => {
    expect(aggregate({ aggregation_type: "count_agg" }, events, period)).toMatchObject({ eventsCount: 4 });
  });

  it("sums numeric values (numeric strings too), ignoring and not counting the others", () => {
    const result = aggregate(sum, events, period);
    expect(result.units.toString()).toBe("12.5");
    expect(result.eventsCount).toBe(2);
  });

  it("carries earlier usage for a recurring sum", () => {
    expect(aggregate({ ...sum, recurring: true }, events, period).units.toString()).toBe("112.5");
  });

  it("takes the max and the latest value (negative latest clamped to 0)", () => {
    expect(aggregate({ ...sum, aggregation_type: "max_agg" }, events, period).units.toString()).toBe("10");
    expect(aggregate({ ...sum, aggregation_type: "latest_agg" }, events, period).units.toString()).toBe("2.5");
    const negative = [ev("2024-03-02T00:00:00Z", { value: 5 }), ev("2024-03-03T00:00:00Z", { value: -4 })];
    expect(aggregate({ ...sum, aggregation_type: "latest_agg" }, negative, period).units.toString()).toBe("0");
  });

  it("is exact on decimals and large integers (fixed-point fast path)", () => {
    const many = Array.from({ length: 1000 }, () => ev("2024-03-02T00:00:00Z", { value: 0.1 }));
    expect(aggregate(sum, many, period).units.toString()).toBe("100");
    const big = [
      ev("2024-03-02T00:00:00Z", { value: 2 ** 52 }),
      ev("2024-03-02T00:00:00Z", { value: 2 ** 52 }),
      ev("2024-03-02T00:00:00Z", { value: "0.000000000001" }),
    ];
    expect(aggregate(sum, big, period).units.toString()).toBe("9007199254740992.000000000001");
  });

  it.each([
    ["round", 1, "12.5"],
    ["round", 0, "13"],
    ["ceil", -1, "20"],
    ["floor", 0, "12"],
  ] as const)("applies rounding_function %s at precision %i", (fn, precision, expected) => {
    expect(
      aggregate({ ...sum, rounding_function: fn, rounding_precision: precision }, events, period).units.toString(),
    ).toBe(expected);
  });

  it("skips metric rounding when asked (pay in advance)", () => {
    expect(
      aggregate({ ...sum, rounding_function: "round" }, events, { ...period, applyRounding: false }).units.toString(),
    ).toBe("12.5");
  });

  it("counts unique values whose last relevant operation is add", () => {
    const metric: BillableMetric = { aggregation_type: "unique_count_agg", field_name: "user" };
    const unique = [
      ev("2024-03-02T00:00:00Z", { user: "a" }),
      ev("2024-03-03T00:00:00Z", { user: "a" }),
      ev("2024-03-04T00:00:00Z", { user: "b" }),
      ev("2024-03-05T00:00:00Z", { user: "b", operation_type: "remove" }),
      ev("2024-03-06T00:00:00Z", { user: "c", operation_type: "remove" }),
      ev("2024-03-07T00:00:00Z", { user: "c" }),
    ];
    expect(aggregate(metric, unique, period)).toMatchObject({ eventsCount: 2 });
    expect(aggregate(metric, unique, period).units.toString()).toBe("2");
  });

  it("builds the percentage running total of the first N events", () => {
    const result = aggregate(sum, events, { ...period, freeUnits: { free_units_per_events: 1 } });
    expect(result.runningTotal?.map(String)).toEqual(["10"]);
  });

  const values4 = () =>
    ["2024-03-02", "2024-03-03", "2024-03-04", "2024-03-05"].map((d) => ev(`${d}T00:00:00Z`, { value: 5 }));

  it("builds the running total up to the event crossing the free amount", () => {
    const values = [
      ev("2024-03-02T00:00:00Z", { value: 50 }),
      ev("2024-03-03T00:00:00Z", { value: 100 }),
      ev("2024-03-04T00:00:00Z", { value: 250 }),
      ev("2024-03-05T00:00:00Z", { value: 400 }),
    ];
    const result = aggregate(sum, values, { ...period, freeUnits: { free_units_per_total_aggregation: "250" } });
    expect(result.runningTotal?.map(String)).toEqual(["50", "150", "400"]);
  });

  it("leaves the running total empty without free units, reading no event's value for it", () => {
    let reads = 0;
    const counted = values4().map((e) => ({
      ...e,
      get properties() {
        reads++;
        return { value: 5 };
      },
    }));
    const result = aggregate(sum, counted, {
      ...period,
      freeUnits: { free_units_per_events: null, free_units_per_total_aggregation: "0" },
    });
    expect(result.runningTotal).toEqual([]);
    expect(result.units.toString()).toBe("20");
    expect(reads).toBe(4); // the sum's own reads, one per event
  });

  it("weights a level by the time it is held (weighted_sum)", () => {
    const metric: BillableMetric = {
      aggregation_type: "weighted_sum_agg",
      field_name: "value",
      weighted_interval: "seconds",
    };
    const levels = [ev("2024-03-11T00:00:00Z", { value: 10 }), ev("2024-03-21T00:00:00Z", { value: -4 })];
    const result = aggregate(metric, levels, { ...period, periodDays: 31 });
    // 10 for 10 days, then 6 for 11 days, over 31 days
    expect(result.units.toDecimalPlaces(10).toString()).toBe(String(Number(((10 * 10 + 6 * 11) / 31).toFixed(10))));
    expect(result.totalAggregatedUnits?.toString()).toBe("6");
  });

  it("starts a recurring weighted sum at the carried level", () => {
    const metric: BillableMetric = { aggregation_type: "weighted_sum_agg", field_name: "value", recurring: true };
    expect(aggregate(metric, [], { ...period, periodDays: 31, initialValue: "3" }).units.toString()).toBe("3");
  });

  it("prorates a recurring sum by the days left in the period", () => {
    const metric: BillableMetric = { aggregation_type: "sum_agg", field_name: "value", recurring: true };
    const seats = [ev("2024-02-10T00:00:00Z", { value: 1 }), ev("2024-03-17T12:00:00Z", { value: 2 })];
    const result = aggregate(metric, seats, { ...period, prorated: true, periodDays: 31 });
    // carried: 1 × 31/31; new: 2 × 15/31 = 0.967741.. -> ceil 5 decimals
    expect(result.units.toString()).toBe("1.96775");
    expect(result.fullUnitsNumber?.toString()).toBe("3");
  });

  it("prorates unique values by their active days", () => {
    const metric: BillableMetric = { aggregation_type: "unique_count_agg", field_name: "user", recurring: true };
    const users = [
      ev("2024-03-01T08:00:00Z", { user: "a" }),
      ev("2024-03-10T08:00:00Z", { user: "a", operation_type: "remove" }),
    ];
    expect(aggregate(metric, users, { ...period, prorated: true, periodDays: 31 }).units.toString()).toBe("0.32259");
  });
});
