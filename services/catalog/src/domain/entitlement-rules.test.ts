import { describe, expect, it } from "vitest";
import { nextEntitlements, privilegeValue } from "./entitlement-rules";
import type { PlanEntitlement, Privilege } from "./feature";

const privilege = (code: string, value_type: string, config: Record<string, unknown> = {}): Privilege => ({
  id: `id-${code}`,
  code,
  name: null,
  value_type,
  config,
  created_at: new Date(0),
});

describe("privilege values", () => {
  it("takes integers as numbers or integer text", () => {
    const max = privilege("max", "integer");
    expect([privilegeValue(max, 10), privilegeValue(max, "-3"), privilegeValue(max, "0")]).toEqual([
      { value: 10 },
      { value: -3 },
      { value: 0 },
    ]);
    for (const bad of [1.5, "1.5", "07", "ten", "", true, { other: true } as const, Number.MAX_SAFE_INTEGER + 1]) {
      expect(privilegeValue(max, bad)).toEqual({ errors: { max_privilege_value: ["value_is_invalid"] } });
    }
  });

  it("takes booleans as true/false or their text", () => {
    const root = privilege("root", "boolean");
    expect([privilegeValue(root, "true"), privilegeValue(root, false)]).toEqual([{ value: true }, { value: false }]);
    expect(privilegeValue(root, 1)).toEqual({ errors: { root_privilege_value: ["value_is_invalid"] } });
  });

  it("takes a select value only among its options", () => {
    const sso = privilege("sso", "select", { select_options: ["google", "okta"] });
    expect(privilegeValue(sso, "okta")).toEqual({ value: "okta" });
    expect(privilegeValue(sso, "azure")).toEqual({ errors: { sso_privilege_value: ["value_not_in_select_options"] } });
  });

  it("takes any non-blank text for a string, and never a missing value", () => {
    const tier = privilege("tier", "string");
    expect(privilegeValue(tier, "gold")).toEqual({ value: "gold" });
    expect(privilegeValue(tier, 3)).toEqual({ errors: { tier_privilege_value: ["value_is_invalid"] } });
    expect(privilegeValue(tier, "  ")).toEqual({ errors: { "privilege.value": ["value_is_mandatory"] } });
    expect(privilegeValue(tier, null)).toEqual({ errors: { "privilege.value": ["value_is_mandatory"] } });
  });
});

describe("next entitlements of a plan", () => {
  const t0 = new Date("2026-01-01T00:00:00Z");
  const t1 = new Date("2026-02-01T00:00:00Z");
  const current: PlanEntitlement[] = [
    {
      feature_id: "seats",
      values: [
        { privilege_id: "max", value: 10 },
        { privilege_id: "root", value: true },
      ],
      created_at: t0,
      updated_at: t0,
    },
    { feature_id: "sso", values: [{ privilege_id: "provider", value: "okta" }], created_at: t0, updated_at: t0 },
  ];
  const sent = new Map([
    ["seats", [{ privilege_id: "max", value: 20 }]],
    ["storage", [{ privilege_id: "tier", value: "gold" }]],
  ]);

  it("replaces: only what is sent remains, existing entitlements keep their creation date", () => {
    expect(nextEntitlements(current, sent, "replace", t1)).toEqual([
      { feature_id: "seats", values: [{ privilege_id: "max", value: 20 }], created_at: t0, updated_at: t1 },
      { feature_id: "storage", values: [{ privilege_id: "tier", value: "gold" }], created_at: t1, updated_at: t1 },
    ]);
  });

  it("merges: sent values are set in place, new ones appended, the rest kept", () => {
    expect(
      nextEntitlements(current, sent, "merge", t1).map((e) => [e.feature_id, e.values.map((v) => v.value)]),
    ).toEqual([
      ["seats", [20, true]],
      ["sso", ["okta"]],
      ["storage", ["gold"]],
    ]);
  });
});
