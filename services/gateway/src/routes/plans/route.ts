import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { presentPlan } from "./presenter";
import { toPlanInputMessage } from "./to-message";
import { planCreateSchema, planErrorKey, planUpdateSchema } from "./validators";

type PlanReply = { plan: Record<string, unknown> };

/** /api/v1/plans: validation and shape only; the catalog service decides. */
export function plansRouter(plans: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const key = (req: Request) => ({ organization_id: organizationId(req), code: req.params.code });
  const send = (res: { json(body: unknown): void }, reply: PlanReply) => res.json({ plan: presentPlan(reply.plan) });

  router.post("/plans", async (req, res) => {
    const input = parseFields(planCreateSchema, wrapped(req, "plan"), planErrorKey);
    send(res, await plans.call<PlanReply>("CreatePlan", { organization_id: organizationId(req), plan: toPlanInputMessage(input) }, opts(req)));
  });

  router.get("/plans", async (req, res) => {
    const reply = await plans.call<{ plans: Array<Record<string, unknown>>; meta: Record<string, unknown> }>(
      "ListPlans",
      { organization_id: organizationId(req), page: pageQuery(req) },
      opts(req),
    );
    res.json({ plans: reply.plans.map(presentPlan), meta: presentMeta(reply.meta) });
  });

  router.get("/plans/:code", async (req, res) => {
    send(res, await plans.call<PlanReply>("GetPlan", key(req), opts(req)));
  });

  router.put("/plans/:code", async (req, res) => {
    const input = parseFields(planUpdateSchema, wrapped(req, "plan"), planErrorKey);
    send(res, await plans.call<PlanReply>("UpdatePlan", { ...key(req), plan: toPlanInputMessage(input) }, opts(req)));
  });

  router.delete("/plans/:code", async (req, res) => {
    send(res, await plans.call<PlanReply>("DeletePlan", key(req), opts(req)));
  });

  return router;
}
