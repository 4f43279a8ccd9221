import { describe, expect, it } from "vitest";
import { highWaterMark } from "./high-water-mark";

const ev = (properties: Record<string, unknown>) => ({ timestamp: 0, properties });

describe("highWaterMark", () => {
  it("sum_agg: the running sum and the highest it reached", () => {
    const metric = { aggregation_type: "sum_agg" as const, field_name: "gb" };
    expect(highWaterMark(metric, [])).toBeNull();
    expect(highWaterMark(metric, [ev({ gb: 10 }), ev({ gb: -4 }), ev({}), ev({ gb: "1.5" })])).toEqual({
      current: "7.5",
      max: "10",
    });
    expect(highWaterMark(metric, [ev({ gb: -3 })])).toEqual({ current: "-3", max: "-3" });
  });

  it("unique_count_agg: active values and their peak; repeats and removals of absent values change nothing", () => {
    const metric = { aggregation_type: "unique_count_agg" as const, field_name: "id" };
    const remove = (id: string) => ev({ id, operation_type: "remove" });
    expect(
      highWaterMark(metric, [ev({ id: "a" }), ev({ id: "a" }), ev({ id: "b" }), remove("a"), remove("z")]),
    ).toEqual({ current: "1", max: "2" });
  });

  it("has no mark for other aggregations", () => {
    expect(highWaterMark({ aggregation_type: "count_agg" }, [ev({})])).toBeNull();
  });
});
