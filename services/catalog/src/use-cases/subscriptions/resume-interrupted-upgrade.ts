import { Subjects } from "@billing/bus";
import { chooseSections, NO_SECTIONS } from "@billing/contracts";
import type { Subscription } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";
import { successorSubscription, type PlanSwitch } from "./successor-subscription";
import { subscriptionEventOf } from "./subscription-plan-refs";
import { insertSubscription } from "./write-subscription";

export interface UpgradeRetry extends Omit<PlanSwitch, "current"> {
  organizationId: string;
  externalId: string;
  externalCustomerId: string;
}

/**
 * An upgrade is two writes: the old subscription is terminated naming its successor's id, then
 * the successor is stored. When a crash came between them (the newest terminated subscription of
 * the external id, of the same customer, names a successor that does not exist), the client's
 * retry stores the successor now, with the recorded id so that a second retry cannot add another.
 * null when there is no interrupted upgrade to resume.
 */
export async function resumeInterruptedUpgrade(deps: CatalogDeps, retry: UpgradeRetry): Promise<Subscription | null> {
  const { organizationId, externalId, externalCustomerId, ...sw } = retry;
  const last = await deps.subscriptions.findByExternalId(organizationId, externalId, ["terminated"]);
  if (!last?.next_subscription_id || last.external_customer_id !== externalCustomerId) return null;
  if (await deps.subscriptions.findById(organizationId, last.next_subscription_id)) return null;
  const now = deps.clock.now();
  const next: Subscription = {
    ...successorSubscription({ ...sw, current: last }, now),
    id: last.next_subscription_id,
    // the chosen sections' records derive from the recorded id too
    ...chooseSections(NO_SECTIONS, sw.sections ?? {}, last.next_subscription_id, now),
    status: "active",
    started_at: now,
    activation_at: null,
  };
  await insertSubscription(
    deps,
    next,
    await subscriptionEventOf(deps, Subjects.catalog.subscriptionStarted, next, now, sw.requestId),
  );
  return next;
}
