import { AppError } from "@billing/errors";
import type { RpcHandler } from "@billing/grpc";
import type { PlanEntitlementView } from "../domain/feature-view";
import type { SubscriptionStatus } from "../domain/subscription";
import type { CatalogDeps } from "../use-cases/deps";
import { deletePlanEntitlement } from "../use-cases/entitlements/delete-plan-entitlement";
import { deletePlanEntitlementPrivilege } from "../use-cases/entitlements/delete-plan-entitlement-privilege";
import { getPlanEntitlement } from "../use-cases/entitlements/get-plan-entitlement";
import { listPlanEntitlements } from "../use-cases/entitlements/list-plan-entitlements";
import { listSubscriptionEntitlements } from "../use-cases/entitlements/list-subscription-entitlements";
import { updatePlanEntitlements, type EntitlementInput } from "../use-cases/entitlements/update-plan-entitlements";

type PlanKey = { organization_id: string; plan_code: string };
type Message = Record<string, any>;

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
function valueOf(text: string | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw AppError.badRequest("value_json is not JSON");
  }
}

const inputsOf = (entitlements: Message[] | undefined): EntitlementInput[] =>
  (entitlements ?? []).map((e) => ({
    feature_code: e.feature_code,
    privileges: (e.privileges ?? []).map((p: Message) => ({ privilege_code: p.privilege_code, value: valueOf(p.value_json) })),
  }));

/** billing.catalog.v1.EntitlementService: proto in, use case, proto out. */
export function entitlementHandlers(deps: CatalogDeps): Record<string, RpcHandler> {
  return {
    ListPlanEntitlements: async (req: PlanKey) => ({
      entitlements: (await listPlanEntitlements(deps, req.organization_id, req.plan_code)).map(entitlementMessage),
    }),
    GetPlanEntitlement: async (req: PlanKey & { feature_code: string }) => ({
      entitlement: entitlementMessage(await getPlanEntitlement(deps, req.organization_id, req.plan_code, req.feature_code)),
    }),
    UpdatePlanEntitlements: async (req: PlanKey & { entitlements: Message[]; replace: boolean }) => {
      const mode = req.replace ? "replace" : "merge";
      const views = await updatePlanEntitlements(deps, req.organization_id, req.plan_code, inputsOf(req.entitlements), mode);
      return { entitlements: views.map(entitlementMessage) };
    },
    DeletePlanEntitlement: async (req: PlanKey & { feature_code: string }) => ({
      entitlement: entitlementMessage(await deletePlanEntitlement(deps, req.organization_id, req.plan_code, req.feature_code)),
    }),
    DeletePlanEntitlementPrivilege: async (req: PlanKey & { feature_code: string; privilege_code: string }) => ({
      entitlement: entitlementMessage(
        await deletePlanEntitlementPrivilege(deps, req.organization_id, req.plan_code, req.feature_code, req.privilege_code),
      ),
    }),
    ListSubscriptionEntitlements: async (req: { organization_id: string; external_id: string; status?: string }) => {
      const status = (req.status || undefined) as SubscriptionStatus | undefined;
      return { entitlements: (await listSubscriptionEntitlements(deps, req.organization_id, req.external_id, status)).map(entitlementMessage) };
    },
  };
}
