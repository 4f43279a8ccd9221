import { Router, type Request, type Response } from "express";
import type { CatalogMessages, CatalogRpc, CustomerRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentMeta, presentSubscription } from "@billing/views";
import { organizationId } from "../../http/context";
import { externalIdKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { toSubscriptionInputMessage } from "./to-message";
import {
  listQuery,
  statusQuery,
  subscriptionCreateSchema,
  subscriptionErrorKey,
  subscriptionUpdateSchema,
  terminationQuery,
} from "./validators";

/** /api/v1/subscriptions: validation and shape only; the catalog service decides (the customer service: whether a customer exists). */
export function subscriptionsRouter(
  subscriptions: RpcClient<CatalogRpc["subscriptions"]>,
  customer: RpcClient<CustomerRpc>,
): Router {
  const router = Router();
  const status = (value: unknown) => parseFields(statusQuery, value ?? undefined, () => "status");
  const send = replySender("subscription", (s: CatalogMessages.Subscription__Output) =>
    presentSubscription(s, { withPlan: true }),
  );

  router.post("/subscriptions", async (req, res) => {
    const input = parseFields(subscriptionCreateSchema, wrapped(req, "subscription"), subscriptionErrorKey);
    const message = { organization_id: organizationId(req), subscription: toSubscriptionInputMessage(input) };
    send(res, await subscriptions.call("CreateSubscription", message, rpcOptions(req)));
  });

  const list = async (req: Request, res: Response, externalCustomerId?: string) => {
    const query = parseFields(listQuery, req.query);
    const statuses = query.status === undefined ? [] : [query.status].flat();
    const message = {
      organization_id: organizationId(req),
      page: pageQuery(req),
      statuses,
      plan_code: query.plan_code,
      external_customer_id: externalCustomerId ?? query.external_customer_id,
    };
    const reply = await subscriptions.call("ListSubscriptions", message, rpcOptions(req));
    res.json({
      subscriptions: reply.subscriptions.map((s) => presentSubscription(s, { withPlan: false })),
      meta: presentMeta(reply.meta),
    });
  };
  router.get("/subscriptions", (req, res) => list(req, res));
  // a customer the organization does not have is 404 customer_not_found, as Lago answers (not an empty list)
  router.get("/customers/:external_customer_id/subscriptions", async (req, res) => {
    const key = externalIdKey(req, "external_customer_id");
    await customer.call("GetCustomer", key, rpcOptions(req));
    await list(req, res, key.external_id);
  });

  router.get("/subscriptions/:external_id", async (req, res) => {
    send(
      res,
      await subscriptions.call(
        "GetSubscription",
        { ...externalIdKey(req), status: status(req.query.status) },
        rpcOptions(req),
      ),
    );
  });

  router.put("/subscriptions/:external_id", async (req, res) => {
    const input = parseFields(subscriptionUpdateSchema, wrapped(req, "subscription"), subscriptionErrorKey);
    // Lago reads `status` from the query or beside `subscription`; we also take it inside.
    const picked = status(req.query.status ?? (req.body as { status?: unknown }).status ?? input.status);
    if (picked && picked !== "active" && picked !== "pending")
      parseFields(subscriptionUpdateSchema, { status: picked }, () => "status");
    const message = { ...externalIdKey(req), status: picked, subscription: toSubscriptionInputMessage(input) };
    send(res, await subscriptions.call("UpdateSubscription", message, rpcOptions(req)));
  });

  router.delete("/subscriptions/:external_id", async (req, res) => {
    const query = parseFields(terminationQuery, req.query);
    send(res, await subscriptions.call("EndSubscription", { ...externalIdKey(req), ...query }, rpcOptions(req)));
  });

  return router;
}
