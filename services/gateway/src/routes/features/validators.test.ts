import { describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import { parseFields } from "../../http/validation";
import { toFeatureInputMessage } from "./to-message";
import { featureCreateSchema, featureErrorKey } from "./validators";

function details(input: unknown) {
  try {
    parseFields(featureCreateSchema, input, featureErrorKey);
    return null;
  } catch (err) {
    return (err as AppError).details;
  }
}

describe("feature input", () => {
  it("names privilege errors as Lago does", () => {
    expect(details({ name: "x" })).toEqual({ code: ["value_is_mandatory"] });
    expect(details({ code: "f", privileges: [{ code: " ", value_type: "float", config: ["a"] }] })).toEqual({
      "privilege.code": ["value_is_mandatory"],
      "privilege.value_type": ["value_is_invalid"],
      "privilege.config": ["invalid_format"],
    });
    expect(details({ code: "f", description: "d".repeat(601) })).toEqual({ description: ["value_is_too_long"] });
  });

  it("refuses a config of any other shape than Lago's select options", () => {
    for (const config of [
      ["a"],
      { select_options: "a" },
      { select_options: [1] },
      { select_options: ["a"], other: 1 },
      { other: 1 },
    ]) {
      expect(details({ code: "f", privileges: [{ code: "p", value_type: "select", config }] })).toEqual({
        "privilege.config": ["invalid_format"],
      });
    }
  });

  it("carries config as its select options and explicit nulls as null_fields", () => {
    const input = parseFields(featureCreateSchema, {
      code: " seats ",
      description: null,
      privileges: [
        { code: "sso", value_type: "select", config: { select_options: ["a"] } },
        { code: "n", name: null, config: null },
        { code: "m", config: {} },
      ],
    });
    expect(toFeatureInputMessage(input)).toEqual({
      code: "seats",
      null_fields: ["description"],
      privileges: [
        {
          code: "sso",
          value_type: "select",
          null_fields: [],
          config: { select_options: ["a"], select_options_set: true },
        },
        { code: "n", null_fields: ["name", "config"], config: undefined },
        { code: "m", null_fields: [], config: { select_options: [], select_options_set: false } },
      ],
    });
  });
});
