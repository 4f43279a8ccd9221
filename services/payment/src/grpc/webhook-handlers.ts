import type { WebhookRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { createWebhookEndpoint } from "../use-cases/webhooks/create-webhook-endpoint";
import { deleteWebhookEndpoint } from "../use-cases/webhooks/delete-webhook-endpoint";
import type { WebhookDeps } from "../use-cases/webhooks/deps";
import { getWebhook } from "../use-cases/webhooks/get-webhook";
import { getWebhookEndpoint } from "../use-cases/webhooks/get-webhook-endpoint";
import { getWebhookHmacKey, getWebhookPublicKey } from "../use-cases/webhooks/get-webhook-keys";
import { listWebhookEndpoints } from "../use-cases/webhooks/list-webhook-endpoints";
import { listWebhooks } from "../use-cases/webhooks/list-webhooks";
import { retryWebhook } from "../use-cases/webhooks/retry-webhook";
import { updateWebhookEndpoint } from "../use-cases/webhooks/update-webhook-endpoint";
import { endpointInputOf, webhookEndpointMessage, webhookMessage } from "./webhook-messages";

/** billing.payment.v1.WebhookService: proto in, use case, proto out. */
export function webhookHandlers(deps: WebhookDeps): Handlers<WebhookRpc> {
  return {
    CreateWebhookEndpoint: async (req) => ({
      webhook_endpoint: webhookEndpointMessage(
        await createWebhookEndpoint(deps, req.organization_id, endpointInputOf(req.webhook_endpoint)),
      ),
    }),
    GetWebhookEndpoint: async (req) => ({
      webhook_endpoint: webhookEndpointMessage(
        await getWebhookEndpoint(deps, req.organization_id, req.webhook_endpoint_id),
      ),
    }),
    UpdateWebhookEndpoint: async (req) => ({
      webhook_endpoint: webhookEndpointMessage(
        await updateWebhookEndpoint(
          deps,
          req.organization_id,
          req.webhook_endpoint_id,
          endpointInputOf(req.webhook_endpoint),
        ),
      ),
    }),
    DeleteWebhookEndpoint: async (req) => ({
      webhook_endpoint: webhookEndpointMessage(
        await deleteWebhookEndpoint(deps, req.organization_id, req.webhook_endpoint_id),
      ),
    }),
    ListWebhookEndpoints: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listWebhookEndpoints(deps, req.organization_id, page);
      return { webhook_endpoints: items.map(webhookEndpointMessage), meta: pageMeta(total, page) };
    },
    GetWebhookPublicKey: async (req) => ({ public_key: await getWebhookPublicKey(deps, req.organization_id) }),
    GetWebhookHmacKey: async (req) => ({ hmac_key: await getWebhookHmacKey(deps, req.organization_id) }),
    ListWebhooks: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listWebhooks(
        deps,
        req.organization_id,
        {
          status: req.status ?? undefined,
          endpointId: req.webhook_endpoint_id ?? undefined,
          webhookType: req.webhook_type ?? undefined,
        },
        page,
      );
      return { webhooks: items.map(webhookMessage), meta: pageMeta(total, page) };
    },
    GetWebhook: async (req) => ({
      webhook: webhookMessage(await getWebhook(deps, req.organization_id, req.webhook_id)),
    }),
    RetryWebhook: async (req) => ({
      webhook: webhookMessage(await retryWebhook(deps, req.organization_id, req.webhook_id)),
    }),
  };
}
