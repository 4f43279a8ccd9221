import { describe, expect, it } from "vitest";
import { aggregate } from "@billing/pricing";
import { partialOf } from "./partials";

describe("bucket partials", () => {
  it("sum, count and max like the pricing library's sum_agg and max_agg", () => {
    const values = [
      1,
      2.5,
      "3",
      "0.1",
      "0.2",
      -4,
      "12.345678901",
      "n/a",
      null,
      9_007_199_254_740_991,
      1,
      "7e2",
      " 5 ",
      true,
    ];
    const events = values.map((v, i) => ({ timestamp: i, properties: v === null ? {} : { v } }));
    const partial = partialOf(
      events.map((e) => e.properties),
      "v",
    ).fields.get("v")!;
    const sum = aggregate({ aggregation_type: "sum_agg", field_name: "v" }, events);
    const max = aggregate({ aggregation_type: "max_agg", field_name: "v" }, events);
    expect([partial.sum.toFixed(), partial.count, partial.max.toFixed()]).toEqual([
      sum.units.toFixed(),
      sum.eventsCount,
      max.units.toFixed(),
    ]);
  });
});
