import type { PageRequest } from "@billing/mongo";
import type { SubscriptionFilter } from "../../persistence/subscription-repository";
import type { CatalogDeps } from "../deps";
import { presentSubscriptions } from "./subscription-plan-refs";

/** GET /subscriptions: newest first, active ones unless statuses are given; items carry no plan. */
export async function listSubscriptions(
  deps: CatalogDeps,
  organizationId: string,
  filter: SubscriptionFilter,
  page: PageRequest,
) {
  const { items, total } = await deps.subscriptions.list(organizationId, filter, page);
  return { items: await presentSubscriptions(deps, organizationId, items), total };
}
