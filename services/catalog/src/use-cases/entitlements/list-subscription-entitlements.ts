import { AppError } from "@billing/errors";
import type { PlanEntitlementView } from "../../domain/feature-view";
import type { SubscriptionStatus } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";
import { plansOf } from "../subscriptions/subscription-plan-refs";
import { entitlementViewsOf } from "./plan-entitlement-refs";

/**
 * GET /subscriptions/{external_id}/entitlements: what the subscription's plan grants (a private plan's parent
 * for a subscription with plan overrides). Subscription-level overrides are not supported, so none apply.
 */
export async function listSubscriptionEntitlements(
  deps: CatalogDeps,
  organizationId: string,
  externalId: string,
  status: SubscriptionStatus = "active",
): Promise<PlanEntitlementView[]> {
  const subscription = await deps.subscriptions.findByExternalId(organizationId, externalId, [status]);
  if (!subscription) throw AppError.notFound("subscription");
  const plan = (await plansOf(deps, organizationId, [subscription])).get(subscription.plan_id);
  const planId = plan?.parent_id ?? subscription.plan_id;
  return (await entitlementViewsOf(deps, organizationId, [planId])).get(planId) ?? [];
}
