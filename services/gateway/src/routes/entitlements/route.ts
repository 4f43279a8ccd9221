import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import type { Message } from "../../http/presenting";
import { parseFields, wrapped } from "../../http/validation";
import { presentPlanEntitlement, presentSubscriptionEntitlement } from "./presenter";
import { toEntitlementInputMessages } from "./to-message";
import { entitlementsSchema, subscriptionStatusQuery } from "./validators";

type One = { entitlement: Message };
type Many = { entitlements: Message[] };

/** /api/v1/plans/{code}/entitlements and /api/v1/subscriptions/{external_id}/entitlements: validation and shape only. */
export function entitlementsRouter(entitlements: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const plan = (req: Request) => ({ organization_id: organizationId(req), plan_code: req.params.code });
  const feature = (req: Request) => ({ ...plan(req), feature_code: req.params.feature_code });
  const sendOne = (res: { json(body: unknown): void }, reply: One) => res.json({ entitlement: presentPlanEntitlement(reply.entitlement) });
  const sendMany = (res: { json(body: unknown): void }, reply: Many) => res.json({ entitlements: reply.entitlements.map(presentPlanEntitlement) });

  const write = (replace: boolean) => async (req: Request, res: { json(body: unknown): void }) => {
    const input = parseFields(entitlementsSchema, wrapped(req, "entitlements"), () => "entitlements");
    const message = { ...plan(req), entitlements: toEntitlementInputMessages(input), replace };
    sendMany(res, await entitlements.call<Many>("UpdatePlanEntitlements", message, opts(req)));
  };

  router.get("/plans/:code/entitlements", async (req, res) => {
    sendMany(res, await entitlements.call<Many>("ListPlanEntitlements", plan(req), opts(req)));
  });
  router.post("/plans/:code/entitlements", write(true));
  router.patch("/plans/:code/entitlements", write(false));

  router.get("/plans/:code/entitlements/:feature_code", async (req, res) => {
    sendOne(res, await entitlements.call<One>("GetPlanEntitlement", feature(req), opts(req)));
  });

  router.delete("/plans/:code/entitlements/:feature_code", async (req, res) => {
    sendOne(res, await entitlements.call<One>("DeletePlanEntitlement", feature(req), opts(req)));
  });

  router.delete("/plans/:code/entitlements/:feature_code/privileges/:privilege_code", async (req, res) => {
    const message = { ...feature(req), privilege_code: req.params.privilege_code };
    sendOne(res, await entitlements.call<One>("DeletePlanEntitlementPrivilege", message, opts(req)));
  });

  router.get("/subscriptions/:external_id/entitlements", async (req, res) => {
    const status = parseFields(subscriptionStatusQuery, req.query.subscription_status ?? req.query.status ?? undefined, () => "subscription_status");
    const message = { organization_id: organizationId(req), external_id: req.params.external_id, status };
    const reply = await entitlements.call<Many>("ListSubscriptionEntitlements", message, opts(req));
    res.json({ entitlements: reply.entitlements.map(presentSubscriptionEntitlement) });
  });

  return router;
}
