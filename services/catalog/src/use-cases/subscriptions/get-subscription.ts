import { AppError } from "@billing/errors";
import type { PageRequest } from "@billing/mongo";
import type { SubscriptionStatus } from "../../domain/subscription";
import type { SubscriptionFilter } from "../../persistence/subscription-repository";
import type { CatalogDeps } from "../deps";
import { presentSubscription, presentSubscriptions, type SubscriptionWithPlan } from "./subscription-plan-refs";

/** GET /subscriptions/{external_id}: the active one unless `status` says otherwise (the newest of several terminated). */
export async function getSubscription(
  deps: CatalogDeps,
  organizationId: string,
  externalId: string,
  status: SubscriptionStatus = "active",
): Promise<SubscriptionWithPlan> {
  const found = await deps.subscriptions.findByExternalId(organizationId, externalId, [status]);
  if (!found) throw AppError.notFound("subscription");
  return presentSubscription(deps, found);
}
