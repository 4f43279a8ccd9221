import { describe, expect, it } from "vitest";
import { Decimal } from "./decimal";
import { applyMetricRounding } from "./rounding";

describe("metric rounding", () => {
  it.each([
    ["123.456", "ceil", -2, "200"],
    ["123.456", "floor", -1, "120"],
    ["123.456", "round", 2, "123.46"],
    ["2.5", "round", null, "3"],
    ["-2.5", "round", 0, "-3"],
    ["-2.5", "ceil", 0, "-2"],
    ["-2.5", "floor", 0, "-3"],
    ["1.2", null, 0, "1.2"],
  ] as const)("%s %s at %s -> %s", (value, fn, precision, expected) => {
    expect(applyMetricRounding(new Decimal(value), fn, precision).toString()).toBe(expected);
  });
});
