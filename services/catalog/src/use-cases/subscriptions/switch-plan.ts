import { randomUUID } from "node:crypto";
import { Subjects } from "@billing/bus";
import { isUpgrade, localDateOf, nextBillingDate, startOfLocalDay, type PlanInterval } from "@billing/pricing";
import type { Subscription } from "../../domain/subscription";
import type { Plan } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { cancelSubscription } from "./cancel-subscription";
import { terminateSubscription } from "./terminate-subscription";
import { plansOf, subscriptionEventOf } from "./subscription-plan-refs";
import { changeSubscription, insertSubscription } from "./write-subscription";

const S = Subjects.catalog;

export interface PlanSwitch {
  current: Subscription;
  /** The public plan asked for, and the plan billed (its private copy when overridden). */
  plan: Plan;
  billed: Plan;
  name?: string | null;
  endingAt?: Date | null;
  requestId?: string;
}

/** The subscription that follows `current` on the new plan: same external id, customer, anniversary and trial start. */
function successor(sw: PlanSwitch, now: Date): Omit<Subscription, "status" | "started_at" | "activation_at"> {
  const { current } = sw;
  return {
    ...current,
    id: randomUUID(),
    plan_id: sw.billed.id,
    plan_code: sw.plan.code,
    overridden: sw.billed.id !== sw.plan.id,
    name: sw.name !== undefined ? sw.name : current.name,
    ending_at: sw.endingAt !== undefined ? sw.endingAt : current.ending_at,
    initial_started_at: current.initial_started_at ?? current.started_at,
    terminated_at: null,
    canceled_at: null,
    previous_subscription_id: current.id,
    previous_plan_code: current.plan_code,
    next_subscription_id: null,
    next_plan_code: null,
    downgrade_plan_date: null,
    on_termination_credit_note: sw.billed.pay_in_advance ? "credit" : null,
    on_termination_invoice: "generate",
    created_at: now,
    updated_at: now,
  };
}

/**
 * Another plan for an active subscription: an upgrade (yearly-equivalent amount ≥) applies now,
 * a downgrade waits for the end of the current period. Returns the subscription to show.
 */
export async function switchPlan(deps: CatalogDeps, sw: PlanSwitch): Promise<Subscription> {
  const currentPlan = (await plansOf(deps, sw.current.organization_id, [sw.current])).get(sw.current.plan_id)!;
  const asInterval = (p: Plan) => ({ interval: p.interval as PlanInterval, amount_cents: p.amount_cents });
  return isUpgrade(asInterval(currentPlan), asInterval(sw.billed)) ? upgrade(deps, sw) : downgrade(deps, sw, currentPlan);
}

/** The old subscription ends now; the new one starts now and keeps the old anniversary and trial start. */
async function upgrade(deps: CatalogDeps, sw: PlanSwitch): Promise<Subscription> {
  const now = deps.clock.now();
  const next: Subscription = { ...successor(sw, now), status: "active", started_at: now, activation_at: null };
  await terminateSubscription(deps, sw.current, { at: now, requestId: sw.requestId, successor: { id: next.id, plan_code: next.plan_code } });
  await insertSubscription(deps, next, await subscriptionEventOf(deps, S.subscriptionStarted, next, now, sw.requestId));
  return next;
}

/**
 * The subscription an upgrade terminated but whose successor was never stored (a crash between
 * the two writes), if the newest terminated subscription of the external id is one.
 */
export async function interruptedUpgrade(deps: CatalogDeps, organizationId: string, externalId: string): Promise<Subscription | null> {
  const last = await deps.subscriptions.findByExternalId(organizationId, externalId, ["terminated"]);
  if (!last?.next_subscription_id) return null;
  return (await deps.subscriptions.findById(organizationId, last.next_subscription_id)) ? null : last;
}

/** Stores the successor an interrupted upgrade recorded (its id, so a second retry cannot add another). */
export async function resumeUpgrade(deps: CatalogDeps, sw: PlanSwitch): Promise<Subscription> {
  const now = deps.clock.now();
  const next: Subscription = { ...successor(sw, now), id: sw.current.next_subscription_id!, status: "active", started_at: now, activation_at: null };
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
  const timing = { ...current, interval: currentPlan.interval as PlanInterval, started_at: current.started_at ?? current.subscription_at };
  const date = nextBillingDate(timing, localDateOf(now, current.timezone));
  const activationAt = startOfLocalDay(date, current.timezone);
  const pending: Subscription = { ...successor(sw, now), status: "pending", started_at: null, activation_at: activationAt };
  await insertSubscription(deps, pending, await subscriptionEventOf(deps, S.subscriptionUpdated, pending, now, sw.requestId));
  return changeSubscription(
    deps, current.organization_id, current.id,
    (s) => ({ ...s, next_subscription_id: pending.id, next_plan_code: sw.plan.code, downgrade_plan_date: date }),
    (next, at) => subscriptionEventOf(deps, S.subscriptionUpdated, next, at, sw.requestId),
  );
}
