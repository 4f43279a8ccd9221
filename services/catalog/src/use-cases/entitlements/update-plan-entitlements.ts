import { AppError } from "@billing/errors";
import type { PlanEntitlement, SentPrivilegeValue } from "../../domain/feature";
import { nextEntitlements, privilegeValue, type EntitlementWriteMode } from "../../domain/entitlement-rules";
import type { PlanEntitlementView } from "../../domain/feature-view";
import type { CatalogDeps } from "../deps";
import { changePlanEntitlements } from "./change-plan-entitlements";
import { livePlan } from "./entitlement-targets";
import { entitlementViews } from "./plan-entitlement-refs";

/** One feature as sent: privilege code → value as the client sent it (checked against the privilege's type). */
export interface EntitlementInput {
  feature_code: string;
  privileges: { privilege_code: string; value: SentPrivilegeValue }[];
}

/**
 * The sent entitlements by feature id with typed values. Unknown feature → 404 feature_not_found, unknown privilege
 * of a feature → 404 privilege_not_found; then every value that does not fit its privilege → one 422.
 */
async function checkedValues(deps: CatalogDeps, organizationId: string, inputs: EntitlementInput[]) {
  const features = await deps.features.findLiveByCodes(organizationId, [...new Set(inputs.map((i) => i.feature_code))]);
  const errors: Record<string, string[]> = {};
  const sent = new Map<string, PlanEntitlement["values"]>();
  for (const input of inputs) {
    const feature = features.find((f) => f.code === input.feature_code);
    if (!feature) throw AppError.notFound("feature");
    const values = input.privileges.map(({ privilege_code, value }) => {
      const privilege = feature.privileges.find((p) => p.code === privilege_code);
      if (!privilege) throw AppError.notFound("privilege");
      return { privilege, checked: privilegeValue(privilege, value) };
    });
    sent.set(
      feature.id,
      values.flatMap(({ privilege, checked }) => {
        if ("value" in checked) return [{ privilege_id: privilege.id, value: checked.value }];
        for (const [key, codes] of Object.entries(checked.errors))
          errors[key] = [...new Set([...(errors[key] ?? []), ...codes])];
        return [];
      }),
    );
  }
  if (Object.keys(errors).length) throw AppError.validation(errors);
  return sent;
}

/**
 * POST /plans/{code}/entitlements ("replace": the plan grants exactly what is sent) and
 * PATCH ("merge": what is sent is added or changed, the rest stays). Returns all the plan's entitlements.
 */
export async function updatePlanEntitlements(
  deps: CatalogDeps,
  organizationId: string,
  planCode: string,
  inputs: EntitlementInput[],
  mode: EntitlementWriteMode,
): Promise<PlanEntitlementView[]> {
  const plan = await livePlan(deps, organizationId, planCode);
  const sent = await checkedValues(deps, organizationId, inputs);
  const entitlements = await changePlanEntitlements(deps, plan, (current, now) =>
    nextEntitlements(current, sent, mode, now),
  );
  return entitlementViews(deps, organizationId, entitlements);
}
