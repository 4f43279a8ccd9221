import type { CatalogMessages as M } from "@billing/contracts";
import { or } from "./presenting";
import { presentPrivilege } from "./features";
import type { planEntitlementObject, subscriptionEntitlementObject, ViewOf } from "./schemas";

/** Lago's PlanEntitlementObject: the feature and the values the plan gives its privileges. */
export function presentPlanEntitlement(e: M.PlanEntitlement__Output) {
  return {
    code: e.code,
    name: or(e.name),
    description: or(e.description),
    privileges: (e.privileges ?? []).map((p) => ({ ...presentPrivilege(p), value: presentValue(p.value) })),
  } satisfies ViewOf<typeof planEntitlementObject>;
}

/** A privilege's value as the plan gives it: an integer, a boolean or a string (the catalog always sends one). */
function presentValue(v: M.PrivilegeValue__Output | null): number | boolean | string {
  switch (v?.value) {
    case "boolean_value":
      return v.boolean_value!;
    case "integer_value":
      return v.integer_value!;
    case "string_value":
      return v.string_value!;
    default:
      throw new Error("a plan's privilege came without its value");
  }
}

/** Lago's SubscriptionEntitlementObject: the plan's values, with no subscription override. */
export function presentSubscriptionEntitlement(e: M.PlanEntitlement__Output) {
  const entitlement = presentPlanEntitlement(e);
  return {
    ...entitlement,
    privileges: entitlement.privileges.map((p) => ({ ...p, plan_value: p.value, override_value: null })),
    overrides: {},
  } satisfies ViewOf<typeof subscriptionEntitlementObject>;
}
