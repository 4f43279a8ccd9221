import { Subjects } from "@billing/bus";
import type { Subscription } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";
import { subscriptionEventOf } from "./subscription-plan-refs";
import { changeSubscription } from "./write-subscription";

const S = Subjects.catalog;

/**
 * A pending subscription whose time has come becomes active. A downgrade first ends the
 * subscription it replaces, at the end of that one's period.
 */
export async function activateSubscription(
  deps: CatalogDeps,
  pending: Subscription,
  requestId?: string,
): Promise<Subscription> {
  const startAt = pending.activation_at ?? pending.subscription_at;
  if (pending.previous_subscription_id) {
    const previous = await deps.subscriptions.findById(pending.organization_id, pending.previous_subscription_id);
    if (previous?.status === "active" && previous.next_subscription_id === pending.id) {
      await changeSubscription(
        deps,
        previous.organization_id,
        previous.id,
        (s) =>
          s.status === "active" ? { ...s, status: "terminated", terminated_at: new Date(startAt.getTime() - 1) } : null,
        (next, now) => subscriptionEventOf(deps, S.subscriptionTerminated, next, now, requestId),
      );
    }
  }
  return changeSubscription(
    deps,
    pending.organization_id,
    pending.id,
    (s) =>
      s.status !== "pending"
        ? null
        : {
            ...s,
            status: "active",
            started_at: startAt,
            initial_started_at: s.initial_started_at ?? startAt,
            activation_at: null,
          },
    (next, now) => subscriptionEventOf(deps, S.subscriptionStarted, next, now, requestId),
  );
}
