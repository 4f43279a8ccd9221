import { Subjects } from "@billing/bus";
import { chooseSections, sectionsOf, type SectionChoice } from "@billing/contracts";
import { AppError } from "@billing/errors";
import { Violations } from "../../domain/patch";
import type { Subscription } from "../../domain/subscription";
import { checkEndingAt } from "../../domain/subscription-rules";
import type { Plan } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { activateSubscription } from "./activate-subscription";
import { childPlanOf, overriddenAgain, type PlanOverrides } from "./plan-overrides";
import { subscriptionEventOf } from "./subscription-plan-refs";
import { changeSubscription } from "./write-subscription";

export interface SubscriptionChange {
  name?: string | null;
  endingAt?: Date | null;
  /** Only a pending subscription's start can move. */
  subscriptionAt?: Date | null;
  overrides?: PlanOverrides;
  /** Another plan for a pending subscription. */
  plan?: Plan;
  billed?: Plan;
  progressiveBillingDisabled?: boolean;
  /** the request's invoice custom sections choice */
  sections?: SectionChoice;
}

/** The plan the change bills: new overrides write the subscription's private plan (created on first use). */
async function billedPlan(
  deps: CatalogDeps,
  s: Subscription,
  change: SubscriptionChange,
  now: Date,
): Promise<Plan | null> {
  if (change.billed) return change.billed;
  if (!change.overrides) return null;
  if (s.overridden) {
    const child = await deps.childPlans.findByIds(s.organization_id, [s.plan_id]);
    const next = await overriddenAgain(deps, child[0]!, change.overrides, now);
    if ((await deps.childPlans.replace(next, child[0]!.updated_at)) !== "ok")
      throw new AppError("unavailable", undefined, undefined, "plan overrides changed concurrently; retry");
    return next;
  }
  const parent = await deps.plans.findByIds(s.organization_id, [s.plan_id]);
  const child = await childPlanOf(deps, parent[0]!, change.overrides, now);
  await deps.childPlans.insert(child);
  return child;
}

/** Applies a change to a current subscription, announces it, and starts a pending one whose start has passed. */
export async function applySubscriptionChange(
  deps: CatalogDeps,
  s: Subscription,
  change: SubscriptionChange,
  requestId?: string,
): Promise<Subscription> {
  const now = deps.clock.now();
  const start = s.status === "pending" && change.subscriptionAt ? change.subscriptionAt : s.subscription_at;
  const v = new Violations();
  if (change.endingAt !== undefined) checkEndingAt(v, change.endingAt, start);
  refuseIfInvalid(v.result());
  const billed = await billedPlan(deps, s, change, now);
  const changed = await changeSubscription(
    deps,
    s.organization_id,
    s.id,
    (current) => ({
      ...current,
      ...(change.name !== undefined && { name: change.name }),
      ...(change.progressiveBillingDisabled !== undefined && {
        progressive_billing_disabled: change.progressiveBillingDisabled,
      }),
      ...(change.sections && chooseSections(sectionsOf(current), change.sections, current.id, now)),
      ...(change.endingAt !== undefined && { ending_at: change.endingAt }),
      ...(current.status === "pending" &&
        change.subscriptionAt &&
        !current.previous_subscription_id && {
          subscription_at: change.subscriptionAt,
          activation_at: change.subscriptionAt,
        }),
      ...(billed && { plan_id: billed.id, overridden: billed.parent_id != null }),
      ...(change.plan && { plan_code: change.plan.code }),
    }),
    (next, at) => subscriptionEventOf(deps, Subjects.catalog.subscriptionUpdated, next, at, requestId),
  );
  const due = changed.status === "pending" && changed.activation_at && changed.activation_at.getTime() <= now.getTime();
  return due ? activateSubscription(deps, changed, requestId) : changed;
}
