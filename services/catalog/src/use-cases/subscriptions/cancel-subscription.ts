import { Subjects } from "@billing/bus";
import type { Subscription } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";
import { subscriptionEventOf } from "./subscription-plan-refs";
import { changeSubscription } from "./write-subscription";

const S = Subjects.catalog;

/** A pending subscription is canceled; a downgrade it stood for is no longer announced on the active one. */
export async function cancelSubscription(
  deps: CatalogDeps,
  pending: Subscription,
  requestId?: string,
): Promise<Subscription> {
  const canceled = await cancelPending(deps, pending, requestId);
  if (canceled.previous_subscription_id) {
    await changeSubscription(
      deps,
      canceled.organization_id,
      canceled.previous_subscription_id,
      (s) =>
        s.next_subscription_id === canceled.id
          ? { ...s, next_subscription_id: null, next_plan_code: null, downgrade_plan_date: null }
          : null,
      (next, now) => subscriptionEventOf(deps, S.subscriptionUpdated, next, now, requestId),
    ).catch(() => undefined); // the previous one may be gone; the cancellation stands
  }
  return canceled;
}

/** Cancels a subscription that has not started (no-op when it is no longer pending). */
export function cancelPending(deps: CatalogDeps, pending: Subscription, requestId?: string) {
  return changeSubscription(
    deps,
    pending.organization_id,
    pending.id,
    (s, now) => (s.status === "pending" ? { ...s, status: "canceled", canceled_at: now, activation_at: null } : null),
    (next, now) => subscriptionEventOf(deps, S.subscriptionCanceled, next, now, requestId),
  );
}
