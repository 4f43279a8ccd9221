import { AppError } from "@billing/errors";
import type { PageRequest } from "@billing/mongo";
import type { SubscriptionStatus } from "../../domain/subscription";
import type { SubscriptionFilter } from "../../persistence/subscription-repository";
import type { CatalogDeps } from "../deps";
import { presentSubscription, presentSubscriptions, type SubscriptionWithPlan } from "./subscription-plan-refs";

/** GET /subscriptions: newest first, active ones unless statuses are given; items carry no plan. */
export async function listSubscriptions(deps: CatalogDeps, organizationId: string, filter: SubscriptionFilter, page: PageRequest) {
  const { items, total } = await deps.subscriptions.list(organizationId, filter, page);
  return { items: await presentSubscriptions(deps, organizationId, items), total };
}
