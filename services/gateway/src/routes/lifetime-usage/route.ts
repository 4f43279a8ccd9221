import { Router } from "express";
import type { LifetimeUsageRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentLifetimeUsage } from "@billing/views";
import { organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { parseFields, wrapped } from "../../http/validation";
import { lifetimeUsageUpdateSchema } from "./validators";

/**
 * /api/v1/subscriptions/{external_id}/lifetime_usage (Lago's LifetimeUsage): progressive billing's
 * lifetime usage of a subscription, and its imported historical usage. The invoicing service owns it.
 */
export function lifetimeUsageRouter(lifetimeUsage: RpcClient<LifetimeUsageRpc>): Router {
  const router = Router();
  const send = replySender("lifetime_usage", presentLifetimeUsage);
  router.get("/subscriptions/:external_id/lifetime_usage", async (req, res) => {
    const key = { organization_id: organizationId(req), external_subscription_id: pathParam(req, "external_id") };
    send(res, await lifetimeUsage.call("GetLifetimeUsage", key, rpcOptions(req)));
  });
  router.put("/subscriptions/:external_id/lifetime_usage", async (req, res) => {
    const input = parseFields(lifetimeUsageUpdateSchema, wrapped(req, "lifetime_usage"), topLevelKey);
    const message = {
      organization_id: organizationId(req),
      external_subscription_id: pathParam(req, "external_id"),
      external_historical_usage_amount_cents: input.external_historical_usage_amount_cents,
    };
    send(res, await lifetimeUsage.call("UpdateLifetimeUsage", message, rpcOptions(req)));
  });
  return router;
}
