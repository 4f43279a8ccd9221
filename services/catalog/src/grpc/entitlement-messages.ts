import type { CatalogMessages as M } from "@billing/contracts";
import type { PrivilegeValue, SentPrivilegeValue } from "../domain/feature";
import type { PlanEntitlementView } from "../domain/feature-view";
import type { EntitlementInput } from "../use-cases/entitlements/update-plan-entitlements";

/** Proto ⇄ domain for plan entitlements. */

/** A privilege's value → the proto PrivilegeValue (an integer, a boolean or a string). */
function valueMessage(value: PrivilegeValue): M.PrivilegeValue {
  if (typeof value === "boolean") return { boolean_value: value };
  return typeof value === "number" ? { integer_value: value } : { string_value: value };
}

/** A plan entitlement view → the proto PlanEntitlement (select options as a list). */
export function entitlementMessage(e: PlanEntitlementView) {
  return {
    ...e,
    privileges: e.privileges.map(({ config, value, ...p }) => ({
      ...p,
      select_options: (config.select_options as string[] | undefined) ?? [],
      value: valueMessage(value),
    })),
  };
}

/** A value as sent; none set is null (the privilege's value is then missing). */
function sentValueOf(p: M.PrivilegeValueInput__Output): SentPrivilegeValue {
  switch (p.value) {
    case "boolean_value":
      return p.boolean_value!;
    case "number_value":
      return p.number_value!;
    case "string_value":
      return p.string_value!;
    case "other_value":
      return { other: true };
    default:
      return null;
  }
}

export const entitlementInputsOf = (entitlements: M.EntitlementInput__Output[] | undefined): EntitlementInput[] =>
  (entitlements ?? []).map((e) => ({
    feature_code: e.feature_code,
    privileges: (e.privileges ?? []).map((p) => ({ privilege_code: p.privilege_code, value: sentValueOf(p) })),
  }));
