import { Router } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentPlan } from "@billing/views";
import { codeResourceRoutes } from "../../http/code-resource-routes";
import { toPlanInputMessage } from "./to-message";
import { planCreateSchema, planErrorKey, planUpdateSchema } from "./validators";

/** /api/v1/plans: validation and shape only; the catalog service decides. */
export function plansRouter(plans: RpcClient<CatalogRpc["plans"]>): Router {
  return codeResourceRoutes(Router(), plans, {
    root: "plan",
    plural: "plans",
    rpc: { create: "CreatePlan", list: "ListPlans", get: "GetPlan", update: "UpdatePlan", delete: "DeletePlan" },
    schemas: { create: planCreateSchema, update: planUpdateSchema, errorKey: planErrorKey },
    toMessage: toPlanInputMessage,
    present: presentPlan,
  });
}
