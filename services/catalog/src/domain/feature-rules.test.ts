import { describe, expect, it } from "vitest";
import type { Feature } from "./feature";
import { changedFeature, featureViolations, privilegeConfigIsValid } from "./feature-rules";

const now = new Date("2026-01-01T00:00:00Z");
let n = 0;
const newId = () => `p${++n}`;
const blank: Feature = {
  id: "f1",
  organization_id: "o",
  code: "",
  name: null,
  description: null,
  privileges: [],
  created_at: now,
  updated_at: now,
  deleted_at: null,
};

describe("feature rules", () => {
  it("accepts a config only for select privileges, as a non-empty list of strings", () => {
    expect(privilegeConfigIsValid("integer", {})).toBe(true);
    expect(privilegeConfigIsValid("integer", { select_options: ["a"] })).toBe(false);
    expect(privilegeConfigIsValid("select", { select_options: ["a", "b"] })).toBe(true);
    expect(privilegeConfigIsValid("select", { select_options: [] })).toBe(false);
    expect(privilegeConfigIsValid("select", { select_options: [1] })).toBe(false);
    expect(privilegeConfigIsValid("select", { select_options: ["a"], other: 1 })).toBe(false);
    expect(privilegeConfigIsValid("string", null)).toBe(false);
  });

  it("defaults a new privilege to a string with no config and trims codes", () => {
    const feature = changedFeature(blank, { code: " seats ", privileges: [{ code: " max " }] }, newId, now);
    expect(feature.code).toBe("seats");
    expect(feature.privileges).toEqual([
      { id: expect.any(String), code: "max", name: null, value_type: "string", config: {}, created_at: now },
    ]);
    expect(featureViolations(feature)).toBeNull();
  });

  it("reports every problem at once under Lago's names", () => {
    const feature = changedFeature(
      blank,
      { name: "n".repeat(256), privileges: [{ code: "", value_type: "float", config: { select_options: [] } }] },
      newId,
      now,
    );
    expect(featureViolations(feature, [{ code: "a" }, { code: "a" }])).toEqual({
      "privilege.code": ["value_is_duplicated", "value_is_mandatory"],
      code: ["value_is_mandatory"],
      name: ["value_is_too_long"],
      "privilege.value_type": ["value_is_invalid"],
      "privilege.config": ["invalid_format"],
    });
  });

  it("amends an existing privilege's name and select options, never its type", () => {
    const base = changedFeature(
      blank,
      { code: "sso", privileges: [{ code: "provider", value_type: "select", config: { select_options: ["google"] } }] },
      newId,
      now,
    );
    const next = changedFeature(
      base,
      {
        privileges: [
          { code: "provider", name: "SSO", value_type: "integer", config: { select_options: ["okta", "google"] } },
        ],
      },
      newId,
      now,
    );
    expect(next.privileges).toEqual([
      { ...base.privileges[0], name: "SSO", config: { select_options: ["google", "okta"] } },
    ]);
  });
});
