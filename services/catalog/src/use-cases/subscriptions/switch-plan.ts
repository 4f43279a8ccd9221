import { Subjects } from "@billing/bus";
import { isUpgrade, localDateOf, nextBillingDate, startOfLocalDay, type PlanInterval } from "@billing/pricing";
import type { Subscription } from "../../domain/subscription";
import type { Plan } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { cancelSubscription } from "./cancel-subscription";
import { successorSubscription, type PlanSwitch } from "./successor-subscription";
import { terminateSubscription } from "./terminate-subscription";
import { plansOf, subscriptionEventOf } from "./subscription-plan-refs";
import { changeSubscription, insertSubscription } from "./write-subscription";

const S = Subjects.catalog;

/**
 * Another plan for an active subscription: an upgrade (yearly-equivalent amount ≥) applies now,
 * a downgrade waits for the end of the current period. Returns the subscription to show.
 */
export async function switchPlan(deps: CatalogDeps, sw: PlanSwitch): Promise<Subscription> {
  const currentPlan = (await plansOf(deps, sw.current.organization_id, [sw.current])).get(sw.current.plan_id)!;
  const asInterval = (p: Plan) => ({ interval: p.interval as PlanInterval, amount_cents: p.amount_cents });
  return isUpgrade(asInterval(currentPlan), asInterval(sw.billed))
    ? upgrade(deps, sw)
    : downgrade(deps, sw, currentPlan);
}

/** The old subscription ends now; the new one starts now and keeps the old anniversary and trial start. */
async function upgrade(deps: CatalogDeps, sw: PlanSwitch): Promise<Subscription> {
  const now = deps.clock.now();
  const next: Subscription = {
    ...successorSubscription(sw, now),
    status: "active",
    started_at: now,
    activation_at: null,
  };
  await terminateSubscription(deps, sw.current, {
    at: now,
    requestId: sw.requestId,
    successor: { id: next.id, plan_code: next.plan_code },
  });
  await insertSubscription(deps, next, await subscriptionEventOf(deps, S.subscriptionStarted, next, now, sw.requestId));
  return next;
}

/** A pending subscription on the new plan starts on the next billing day; the active one announces it. */
async function downgrade(deps: CatalogDeps, sw: PlanSwitch, currentPlan: Plan): Promise<Subscription> {
  const { current } = sw;
  const now = deps.clock.now();
  if (current.next_subscription_id) {
    const previousNext = await deps.subscriptions.findById(current.organization_id, current.next_subscription_id);
    if (previousNext?.status === "pending") await cancelSubscription(deps, previousNext, sw.requestId);
  }
  const timing = {
    ...current,
    interval: currentPlan.interval as PlanInterval,
    started_at: current.started_at ?? current.subscription_at,
  };
  const date = nextBillingDate(timing, localDateOf(now, current.timezone));
  const activationAt = startOfLocalDay(date, current.timezone);
  const pending: Subscription = {
    ...successorSubscription(sw, now),
    status: "pending",
    started_at: null,
    activation_at: activationAt,
  };
  await insertSubscription(
    deps,
    pending,
    await subscriptionEventOf(deps, S.subscriptionUpdated, pending, now, sw.requestId),
  );
  return changeSubscription(
    deps,
    current.organization_id,
    current.id,
    (s) => ({ ...s, next_subscription_id: pending.id, next_plan_code: sw.plan.code, downgrade_plan_date: date }),
    (next, at) => subscriptionEventOf(deps, S.subscriptionUpdated, next, at, sw.requestId),
  );
}
