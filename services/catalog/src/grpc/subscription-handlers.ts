import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { CatalogDeps } from "../use-cases/deps";
import { createSubscription } from "../use-cases/subscriptions/create-subscription";
import { endSubscription } from "../use-cases/subscriptions/end-subscription";
import { getSubscription } from "../use-cases/subscriptions/get-subscription";
import { listSubscriptions } from "../use-cases/subscriptions/list-subscriptions";
import { updateSubscription } from "../use-cases/subscriptions/update-subscription";
import {
  subscriptionFilterOf,
  subscriptionInputOf,
  subscriptionMessage,
  subscriptionStatusOf,
} from "./subscription-messages";

/** billing.catalog.v1.SubscriptionService: proto in, use case, proto out. */
export function subscriptionHandlers(deps: CatalogDeps): Handlers<CatalogRpc["subscriptions"]> {
  return {
    CreateSubscription: async (req, ctx) => ({
      subscription: subscriptionMessage(
        await createSubscription(deps, req.organization_id, subscriptionInputOf(req.subscription), ctx.requestId),
      ),
    }),
    GetSubscription: async (req) => ({
      subscription: subscriptionMessage(
        await getSubscription(deps, req.organization_id, req.external_id, subscriptionStatusOf(req.status)),
      ),
    }),
    UpdateSubscription: async (req, ctx) => ({
      subscription: subscriptionMessage(
        await updateSubscription(
          deps,
          req.organization_id,
          req.external_id,
          subscriptionStatusOf(req.status),
          subscriptionInputOf(req.subscription),
          ctx.requestId,
        ),
      ),
    }),
    EndSubscription: async (req, ctx) => ({
      subscription: subscriptionMessage(
        await endSubscription(deps, req.organization_id, req.external_id, req, ctx.requestId),
      ),
    }),
    ListSubscriptions: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listSubscriptions(deps, req.organization_id, subscriptionFilterOf(req), page);
      return { subscriptions: items.map(subscriptionMessage), meta: pageMeta(total, page) };
    },
  };
}
