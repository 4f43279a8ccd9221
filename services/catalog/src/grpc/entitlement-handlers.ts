import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import type { CatalogDeps } from "../use-cases/deps";
import { deletePlanEntitlement } from "../use-cases/entitlements/delete-plan-entitlement";
import { deletePlanEntitlementPrivilege } from "../use-cases/entitlements/delete-plan-entitlement-privilege";
import { getPlanEntitlement } from "../use-cases/entitlements/get-plan-entitlement";
import { listPlanEntitlements } from "../use-cases/entitlements/list-plan-entitlements";
import { listSubscriptionEntitlements } from "../use-cases/entitlements/list-subscription-entitlements";
import { updatePlanEntitlements } from "../use-cases/entitlements/update-plan-entitlements";
import { entitlementInputsOf, entitlementMessage } from "./entitlement-messages";
import { subscriptionStatusOf } from "./subscription-messages";

/** billing.catalog.v1.EntitlementService: proto in, use case, proto out. */
export function entitlementHandlers(deps: CatalogDeps): Handlers<CatalogRpc["entitlements"]> {
  return {
    ListPlanEntitlements: async (req) => ({
      entitlements: (await listPlanEntitlements(deps, req.organization_id, req.plan_code)).map(entitlementMessage),
    }),
    GetPlanEntitlement: async (req) => ({
      entitlement: entitlementMessage(
        await getPlanEntitlement(deps, req.organization_id, req.plan_code, req.feature_code),
      ),
    }),
    UpdatePlanEntitlements: async (req) => {
      const mode = req.replace ? "replace" : "merge";
      const views = await updatePlanEntitlements(
        deps,
        req.organization_id,
        req.plan_code,
        entitlementInputsOf(req.entitlements),
        mode,
      );
      return { entitlements: views.map(entitlementMessage) };
    },
    DeletePlanEntitlement: async (req) => ({
      entitlement: entitlementMessage(
        await deletePlanEntitlement(deps, req.organization_id, req.plan_code, req.feature_code),
      ),
    }),
    DeletePlanEntitlementPrivilege: async (req) => ({
      entitlement: entitlementMessage(
        await deletePlanEntitlementPrivilege(
          deps,
          req.organization_id,
          req.plan_code,
          req.feature_code,
          req.privilege_code,
        ),
      ),
    }),
    ListSubscriptionEntitlements: async (req) => ({
      entitlements: (
        await listSubscriptionEntitlements(deps, req.organization_id, req.external_id, subscriptionStatusOf(req.status))
      ).map(entitlementMessage),
    }),
  };
}
