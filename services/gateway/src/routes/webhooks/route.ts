import { Router, type Request } from "express";
import type { WebhookRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentMeta, presentWebhook, presentWebhookEndpoint } from "@billing/views";
import { organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { pathParam, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { webhookEndpointSchema, webhookListQuery } from "./validators";

const endpointInput = (req: Request) => {
  const body = parseFields(webhookEndpointSchema, wrapped(req, "webhook_endpoint"), topLevelKey);
  return {
    webhook_url: body.webhook_url,
    signature_algo: body.signature_algo ?? undefined,
    name: body.name ?? undefined,
    event_types: body.event_types ?? [],
    has_event_types: body.event_types !== null && body.event_types !== undefined,
  };
};

/**
 * Lago's /webhook_endpoints and /webhooks/json_public_key, and our delivery log (/webhooks,
 * /webhooks/{id}, /webhooks/{id}/retry) and /webhooks/hmac_key: validation and shape only.
 */
export function webhooksRouter(webhooks: RpcClient<WebhookRpc>): Router {
  const router = Router();
  const sendEndpoint = replySender("webhook_endpoint", presentWebhookEndpoint);
  const sendWebhook = replySender("webhook", presentWebhook);
  const endpointKey = (req: Request) => ({
    organization_id: organizationId(req),
    webhook_endpoint_id: pathParam(req, "id"),
  });

  router.post("/webhook_endpoints", async (req, res) =>
    sendEndpoint(
      res,
      await webhooks.call(
        "CreateWebhookEndpoint",
        { organization_id: organizationId(req), webhook_endpoint: endpointInput(req) },
        rpcOptions(req),
      ),
    ),
  );
  router.get("/webhook_endpoints", async (req, res) => {
    const reply = await webhooks.call(
      "ListWebhookEndpoints",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ webhook_endpoints: reply.webhook_endpoints.map(presentWebhookEndpoint), meta: presentMeta(reply.meta) });
  });
  router.get("/webhook_endpoints/:id", async (req, res) =>
    sendEndpoint(res, await webhooks.call("GetWebhookEndpoint", endpointKey(req), rpcOptions(req))),
  );
  router.put("/webhook_endpoints/:id", async (req, res) =>
    sendEndpoint(
      res,
      await webhooks.call(
        "UpdateWebhookEndpoint",
        { ...endpointKey(req), webhook_endpoint: endpointInput(req) },
        rpcOptions(req),
      ),
    ),
  );
  router.delete("/webhook_endpoints/:id", async (req, res) =>
    sendEndpoint(res, await webhooks.call("DeleteWebhookEndpoint", endpointKey(req), rpcOptions(req))),
  );

  router.get("/webhooks/json_public_key", async (req, res) => {
    const reply = await webhooks.call("GetWebhookPublicKey", { organization_id: organizationId(req) }, rpcOptions(req));
    res.json({ webhook: { public_key: reply.public_key } });
  });
  // deprecated in Lago: the same key as plain text
  router.get("/webhooks/public_key", async (req, res) => {
    const reply = await webhooks.call("GetWebhookPublicKey", { organization_id: organizationId(req) }, rpcOptions(req));
    res.type("text/plain").send(reply.public_key);
  });
  router.get("/webhooks/hmac_key", async (req, res) => {
    const reply = await webhooks.call("GetWebhookHmacKey", { organization_id: organizationId(req) }, rpcOptions(req));
    res.json({ webhook: { hmac_key: reply.hmac_key } });
  });
  router.get("/webhooks", async (req, res) => {
    const q = parseFields(webhookListQuery, req.query);
    const reply = await webhooks.call(
      "ListWebhooks",
      { organization_id: organizationId(req), page: pageQuery(req), ...q },
      rpcOptions(req),
    );
    res.json({ webhooks: reply.webhooks.map(presentWebhook), meta: presentMeta(reply.meta) });
  });
  router.get("/webhooks/:id", async (req, res) =>
    sendWebhook(
      res,
      await webhooks.call(
        "GetWebhook",
        { organization_id: organizationId(req), webhook_id: pathParam(req, "id") },
        rpcOptions(req),
      ),
    ),
  );
  router.post("/webhooks/:id/retry", async (req, res) =>
    sendWebhook(
      res,
      await webhooks.call(
        "RetryWebhook",
        { organization_id: organizationId(req), webhook_id: pathParam(req, "id") },
        rpcOptions(req),
      ),
    ),
  );
  return router;
}
