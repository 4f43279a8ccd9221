import { describe, expect, it } from "vitest";
import { billableMetricViolations, isValidExpression, normalizeBillableMetric } from "./billable-metric-rules";
import type { BillableMetric } from "./types";

const now = new Date("2026-01-01T00:00:00Z");
const metric = (over: Partial<BillableMetric>): BillableMetric => ({
  id: "m",
  organization_id: "o",
  code: "calls",
  name: "Calls",
  description: null,
  aggregation_type: "count_agg",
  field_name: null,
  recurring: false,
  rounding_function: null,
  rounding_precision: null,
  weighted_interval: null,
  expression: null,
  filters: [],
  created_at: now,
  updated_at: now,
  deleted_at: null,
  ...over,
});

describe("billable metric rules", () => {
  it("accepts a count without a field name", () => {
    expect(billableMetricViolations(metric({}))).toBeNull();
  });

  it.each(["sum_agg", "max_agg", "unique_count_agg", "latest_agg", "weighted_sum_agg"])(
    "requires a field name for %s",
    (aggregation_type) => {
      expect(billableMetricViolations(metric({ aggregation_type }))).toEqual({ field_name: ["value_is_mandatory"] });
    },
  );

  it("refuses an unknown aggregation type and rounding function", () => {
    expect(billableMetricViolations(metric({ aggregation_type: "custom_agg", rounding_function: "up" }))).toEqual({
      aggregation_type: ["value_is_invalid"],
      field_name: ["value_is_mandatory"],
      rounding_function: ["value_is_invalid"],
    });
  });

  it("lets sums, unique counts and weighted sums recur, but not counts, maxima or latest values", () => {
    expect(
      billableMetricViolations(metric({ aggregation_type: "weighted_sum_agg", field_name: "v", recurring: true })),
    ).toBeNull();
    expect(billableMetricViolations(metric({ recurring: true }))).toEqual({
      recurring: ["not_compatible_with_aggregation_type"],
    });
  });

  it("checks expressions with the pricing parser", () => {
    expect(isValidExpression("round((event.properties.ended_at - event.properties.started_at) * 2)")).toBe(true);
    expect(isValidExpression("event.properties.a +")).toBe(false);
    expect(billableMetricViolations(metric({ expression: "unknown(1)" }))).toEqual({
      expression: ["invalid_expression"],
    });
  });

  it("refuses filters without values and repeated filter keys", () => {
    expect(billableMetricViolations(metric({ filters: [{ key: "region", values: [] }] }))).toEqual({
      filters: ["value_is_mandatory"],
    });
    expect(
      billableMetricViolations(
        metric({
          filters: [
            { key: "r", values: ["a"] },
            { key: "r", values: ["b"] },
          ],
        }),
      ),
    ).toEqual({ filters: ["value_is_invalid"] });
  });

  it("weighs per second by default and only for weighted sums; a blank expression is none", () => {
    expect(
      normalizeBillableMetric(metric({ aggregation_type: "weighted_sum_agg", field_name: "v" })).weighted_interval,
    ).toBe("seconds");
    expect(normalizeBillableMetric(metric({ weighted_interval: "seconds", expression: "  " }))).toMatchObject({
      weighted_interval: null,
      expression: null,
    });
  });
});
