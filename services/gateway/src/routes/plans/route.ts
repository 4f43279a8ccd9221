import { Router, type Request } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { codeKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { presentPlan } from "./presenter";
import { toPlanInputMessage } from "./to-message";
import { planCreateSchema, planErrorKey, planUpdateSchema } from "./validators";


/** /api/v1/plans: validation and shape only; the catalog service decides. */
export function plansRouter(plans: RpcClient<CatalogRpc["plans"]>): Router {
  const router = Router();
  const send = replySender("plan", presentPlan);

  router.post("/plans", async (req, res) => {
    const input = parseFields(planCreateSchema, wrapped(req, "plan"), planErrorKey);
    send(res, await plans.call("CreatePlan", { organization_id: organizationId(req), plan: toPlanInputMessage(input) }, rpcOptions(req)));
  });

  router.get("/plans", async (req, res) => {
    const reply = await plans.call(
      "ListPlans",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ plans: reply.plans.map(presentPlan), meta: presentMeta(reply.meta) });
  });

  router.get("/plans/:code", async (req, res) => {
    send(res, await plans.call("GetPlan", codeKey(req), rpcOptions(req)));
  });

  router.put("/plans/:code", async (req, res) => {
    const input = parseFields(planUpdateSchema, wrapped(req, "plan"), planErrorKey);
    send(res, await plans.call("UpdatePlan", { ...codeKey(req), plan: toPlanInputMessage(input) }, rpcOptions(req)));
  });

  router.delete("/plans/:code", async (req, res) => {
    send(res, await plans.call("DeletePlan", codeKey(req), rpcOptions(req)));
  });

  return router;
}
