import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { CatalogDeps } from "../use-cases/deps";
import { createPlan } from "../use-cases/plans/create-plan";
import { deletePlan } from "../use-cases/plans/delete-plan";
import { getPlan } from "../use-cases/plans/get-plan";
import { listPlans } from "../use-cases/plans/list-plans";
import { updatePlan } from "../use-cases/plans/update-plan";
import { planChangeOf, planMessage } from "./plan-messages";

/** billing.catalog.v1.PlanService: proto in, use case, proto out. */
export function planHandlers(deps: CatalogDeps): Handlers<CatalogRpc["plans"]> {
  return {
    CreatePlan: async (req, ctx) => ({
      plan: planMessage(await createPlan(deps, req.organization_id, planChangeOf(req.plan), ctx.requestId)),
    }),
    GetPlan: async (req) => ({ plan: planMessage(await getPlan(deps, req.organization_id, req.code)) }),
    UpdatePlan: async (req, ctx) => ({
      plan: planMessage(await updatePlan(deps, req.organization_id, req.code, planChangeOf(req.plan), ctx.requestId)),
    }),
    DeletePlan: async (req, ctx) => ({
      plan: planMessage(await deletePlan(deps, req.organization_id, req.code, ctx.requestId)),
    }),
    ListPlans: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listPlans(deps, req.organization_id, page);
      return { plans: items.map(planMessage), meta: pageMeta(total, page) };
    },
  };
}
