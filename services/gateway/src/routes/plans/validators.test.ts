import { describe, expect, it } from "vitest";
import type { AppError } from "@billing/errors";
import { parseFields } from "../../http/validation";
import { toPlanInputMessage } from "./to-message";
import { planErrorKey, planUpdateSchema } from "./validators";

const withCharge = (properties: unknown) => ({
  charges: [{ billable_metric_id: "m1", charge_model: "standard", properties }],
});

function details(input: unknown) {
  try {
    parseFields(planUpdateSchema, input, planErrorKey);
    return null;
  } catch (err) {
    return (err as AppError).details;
  }
}

describe("charge properties as sent", () => {
  it("are read by the JSON kinds the pricing library reads, another kind being value_is_invalid under the field", () => {
    expect(details(withCharge({ amount: 5 }))).toEqual({ "charges.0.properties.amount": ["value_is_invalid"] });
    expect(details(withCharge({ package_size: "10" }))).toEqual({
      "charges.0.properties.package_size": ["value_is_invalid"],
    });
    expect(
      details(withCharge({ graduated_ranges: [{ from_value: "x", to_value: null, per_unit_amount: 1 }] })),
    ).toEqual({
      "charges.0.properties.graduated_ranges.0.from_value": ["value_is_invalid"],
      "charges.0.properties.graduated_ranges.0.per_unit_amount": ["value_is_invalid"],
      "charges.0.properties.graduated_ranges.0.flat_amount": ["value_is_mandatory"],
    });
    expect(details(withCharge(["a"]))).toEqual({ "charges.0.properties": ["value_is_invalid"] });
    // values are the catalog's to judge (format, sign, what the model requires)
    expect(details(withCharge({ amount: "abc", package_size: -1 }))).toBeNull();
  });

  it("travel as the ChargeProperties message: nulls kept where a model takes one, range bounds as numbers, unknown keys dropped", () => {
    const input = parseFields(planUpdateSchema, {
      charges: [
        {
          billable_metric_id: "m1",
          charge_model: "graduated",
          properties: {
            amount: null,
            package_size: null,
            graduated_ranges: [{ from_value: "0", to_value: "10", per_unit_amount: "1", flat_amount: "0" }],
            gb: 1,
          },
          filters: [{ values: { region: ["eu"] } }],
        },
      ],
      metadata: { "a.b": "x" },
    });
    const message = toPlanInputMessage(input);
    expect(message.charges[0]!.properties).toMatchObject({
      graduated_ranges: [{ from_value: 0, to_value: 10, per_unit_amount: "1", flat_amount: "0" }],
      null_fields: ["amount"],
    });
    expect(message.charges[0]!.properties).not.toHaveProperty("package_size", expect.anything());
    expect(message.charges[0]!.filters).toEqual([
      expect.objectContaining({
        values: { region: { values: ["eu"] } },
        properties: expect.objectContaining({ null_fields: [] }),
      }),
    ]);
    expect(message.metadata_json).toBe('{"a.b":"x"}');
  });
});
