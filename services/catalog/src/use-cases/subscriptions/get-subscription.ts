import { AppError } from "@billing/errors";
import type { SubscriptionStatus } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";
import { presentSubscription, type SubscriptionWithPlan } from "./subscription-plan-refs";

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
