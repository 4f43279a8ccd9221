import type { Envelope } from "@billing/bus";
import { AppError } from "@billing/errors";
import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { Subscription } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";

/** Another current subscription of the organization already uses this external id. */
export const externalIdTaken = () => AppError.validation({ external_id: ["value_already_exist"] });

/** Stores a new subscription with its event, then publishes the event. */
export async function insertSubscription(deps: CatalogDeps, s: Subscription, event?: Envelope): Promise<void> {
  if ((await deps.subscriptions.insert(s, event)) === "slot_taken") throw externalIdTaken();
  if (event) await deps.publishSubscriptionEvent(s.id, event);
}

/**
 * Reads a subscription, computes its next state and writes it if nobody changed it meanwhile
 * (reading again after a lost race), then publishes the event. `change` may throw (nothing is
 * stored) or return null to leave the subscription as it is.
 */
export async function changeSubscription(
  deps: CatalogDeps,
  organizationId: string,
  id: string,
  change: (current: Subscription, now: Date) => Promise<Subscription | null> | Subscription | null,
  eventOf?: (next: Subscription, now: Date) => Promise<Envelope | undefined> | Envelope | undefined,
): Promise<Subscription> {
  return retryOnLostRace(
    "subscription",
    async () => {
      const current = await deps.subscriptions.findById(organizationId, id);
      if (!current) throw AppError.notFound("subscription");
      const now = deps.clock.now();
      const changed = await change(current, now);
      if (!changed) return current;
      const next = { ...changed, updated_at: new Date(Math.max(now.getTime(), current.updated_at.getTime() + 1)) };
      const event = await eventOf?.(next, now);
      const outcome = await deps.subscriptions.replace(next, current.updated_at, event);
      if (outcome === "slot_taken") throw externalIdTaken();
      if (outcome === "ok") {
        if (event) await deps.publishSubscriptionEvent(next.id, event);
        return next;
      }
      return LOST_RACE;
    },
    10,
  );
}
