import { Router, type Request, type Response } from "express";
import type { CatalogMessages, CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentPlanEntitlement, presentSubscriptionEntitlement } from "@billing/views";
import { organizationId } from "../../http/context";
import { pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { parseFields, wrapped } from "../../http/validation";
import { toEntitlementInputMessages } from "./to-message";
import { entitlementsSchema, subscriptionStatusQuery } from "./validators";

/** /api/v1/plans/{code}/entitlements and /api/v1/subscriptions/{external_id}/entitlements: validation and shape only. */
export function entitlementsRouter(entitlements: RpcClient<CatalogRpc["entitlements"]>): Router {
  const router = Router();
  const plan = (req: Request) => ({ organization_id: organizationId(req), plan_code: pathParam(req, "code") });
  const feature = (req: Request) => ({ ...plan(req), feature_code: pathParam(req, "feature_code") });
  const sendOne = replySender("entitlement", presentPlanEntitlement);
  const sendMany = (res: Response, reply: { entitlements: CatalogMessages.PlanEntitlement__Output[] }) =>
    res.json({ entitlements: reply.entitlements.map(presentPlanEntitlement) });

  const write = (replace: boolean) => async (req: Request, res: Response) => {
    const input = parseFields(entitlementsSchema, wrapped(req, "entitlements"), () => "entitlements");
    const message = { ...plan(req), entitlements: toEntitlementInputMessages(input), replace };
    sendMany(res, await entitlements.call("UpdatePlanEntitlements", message, rpcOptions(req)));
  };

  router.get("/plans/:code/entitlements", async (req, res) => {
    sendMany(res, await entitlements.call("ListPlanEntitlements", plan(req), rpcOptions(req)));
  });
  router.post("/plans/:code/entitlements", write(true));
  router.patch("/plans/:code/entitlements", write(false));

  router.get("/plans/:code/entitlements/:feature_code", async (req, res) => {
    sendOne(res, await entitlements.call("GetPlanEntitlement", feature(req), rpcOptions(req)));
  });

  router.delete("/plans/:code/entitlements/:feature_code", async (req, res) => {
    sendOne(res, await entitlements.call("DeletePlanEntitlement", feature(req), rpcOptions(req)));
  });

  router.delete("/plans/:code/entitlements/:feature_code/privileges/:privilege_code", async (req, res) => {
    const message = { ...feature(req), privilege_code: pathParam(req, "privilege_code") };
    sendOne(res, await entitlements.call("DeletePlanEntitlementPrivilege", message, rpcOptions(req)));
  });

  router.get("/subscriptions/:external_id/entitlements", async (req, res) => {
    const status = parseFields(
      subscriptionStatusQuery,
      req.query.subscription_status ?? req.query.status ?? undefined,
      () => "subscription_status",
    );
    const message = { organization_id: organizationId(req), external_id: pathParam(req, "external_id"), status };
    const reply = await entitlements.call("ListSubscriptionEntitlements", message, rpcOptions(req));
    res.json({ entitlements: reply.entitlements.map(presentSubscriptionEntitlement) });
  });

  return router;
}
