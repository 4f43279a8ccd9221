import type { CatalogMessages as M } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { PlanEntitlementView } from "../domain/feature-view";
import type { EntitlementInput } from "../use-cases/entitlements/update-plan-entitlements";

/** Proto ⇄ domain for plan entitlements. */

/** A plan entitlement view → the proto PlanEntitlement (values as JSON text, select options as a list). */
export function entitlementMessage(e: PlanEntitlementView) {
  return {
    ...e,
    privileges: e.privileges.map(({ config, value, ...p }) => ({
      ...p, select_options: (config.select_options as string[] | undefined) ?? [], value_json: JSON.stringify(value),
    })),
  };
}

/** Sent values are JSON text; an absent one is null (the privilege's value is then missing). */
function valueOf(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw AppError.badRequest("value_json is not JSON");
  }
}

export const entitlementInputsOf = (entitlements: M.EntitlementInput__Output[] | undefined): EntitlementInput[] =>
  (entitlements ?? []).map((e) => ({
    feature_code: e.feature_code,
    privileges: (e.privileges ?? []).map((p) => ({ privilege_code: p.privilege_code, value: valueOf(p.value_json) })),
  }));
