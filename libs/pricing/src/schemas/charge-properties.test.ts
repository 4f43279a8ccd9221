import { describe, expect, it } from "vitest";
import { chargeFilterSchema, chargePropertiesSchema, propertiesErrorDetails } from "./charge-properties";

const errors = (model: Parameters<typeof chargePropertiesSchema>[0], properties: unknown) => {
  const result = chargePropertiesSchema(model).safeParse(properties);
  return result.success ? {} : propertiesErrorDetails(result.error);
};

const range = (from: number, to: number | null, price = "1") => ({
  from_value: from,
  to_value: to,
  per_unit_amount: price,
  flat_amount: "0",
});

describe("charge properties schemas", () => {
  it("accepts valid properties of every model", () => {
    expect(errors("standard", { amount: "0.5" })).toEqual({});
    expect(errors("standard", {})).toEqual({});
    expect(errors("package", { amount: "10", package_size: 100, free_units: 0 })).toEqual({});
    expect(errors("graduated", { graduated_ranges: [range(0, 10), range(11, null)] })).toEqual({});
    expect(errors("graduated", { graduated_ranges: [range(0, 0.1), range(0.1, null)] })).toEqual({});
    expect(errors("volume", { volume_ranges: [range(0, null)] })).toEqual({});
    expect(
      errors("graduated_percentage", {
        graduated_percentage_ranges: [{ from_value: 0, to_value: null, rate: "1", flat_amount: "0" }],
      }),
    ).toEqual({});
    expect(
      errors("percentage", {
        rate: "2.5",
        fixed_amount: "0.3",
        free_units_per_events: 3,
        per_transaction_min_amount: "1",
        per_transaction_max_amount: "10",
      }),
    ).toEqual({});
    expect(errors("dynamic", {})).toEqual({});
  });

  it.each([
    ["graduated", { graduated_ranges: [range(1.5, 10), range(11, null)] }, "properties.graduated_ranges.0.from_value"],
    ["graduated", { graduated_ranges: [range(0, 10), range(13, null)] }, "properties.graduated_ranges.1.from_value"],
    ["graduated", { graduated_ranges: [range(0, 10), range(11, 20)] }, "properties.graduated_ranges.1.to_value"],
    ["graduated", { graduated_ranges: [range(0, null), range(11, null)] }, "properties.graduated_ranges.0.to_value"],
    ["volume", { volume_ranges: [range(0, 10, "-1"), range(11, null)] }, "properties.volume_ranges.0.per_unit_amount"],
    ["graduated", { graduated_ranges: [] }, "properties.graduated_ranges"],
    ["package", { amount: "10", package_size: 0 }, "properties.package_size"],
    ["package", { package_size: 10 }, "properties.amount"],
    ["standard", { amount: 12 }, "properties.amount"],
    [
      "percentage",
      { rate: "1", per_transaction_min_amount: "5", per_transaction_max_amount: "2" },
      "properties.per_transaction_max_amount",
    ],
  ] as const)("rejects invalid %s properties at the exact field path (%s)", (model, properties, path) => {
    expect(Object.keys(errors(model, properties))).toContain(path);
  });

  it("names missing fields value_is_mandatory", () => {
    expect(errors("package", { package_size: 10 })).toEqual({ "properties.amount": ["value_is_mandatory"] });
  });

  it("validates charge filters with the model's properties", () => {
    const schema = chargeFilterSchema("standard");
    expect(schema.safeParse({ values: { region: ["eu"] }, properties: { amount: "1" } }).success).toBe(true);
    expect(schema.safeParse({ values: { region: [] }, properties: { amount: "1" } }).success).toBe(false);
  });
});
