import { chosenSectionIdsOf } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Subscription } from "../../domain/subscription";
import { applicableUsageThresholds, subscriptionView } from "../../domain/subscription-view";
import type { Plan } from "../../domain/types";
import type { PlanView } from "../../domain/views";
import type { SubscriptionEventType } from "../../events/subscription-events";
import { subscriptionEvent } from "../../events/subscription-events";
import type { CatalogDeps } from "../deps";
import { planViews } from "../plans/plan-refs";
import { chosenSections } from "./subscription-sections";

/** The plans the subscriptions are billed on (private copies included, deleted plans too), by id. */
export async function plansOf(
  deps: CatalogDeps,
  organizationId: string,
  subs: Subscription[],
): Promise<Map<string, Plan>> {
  const ids = (overridden: boolean) => [
    ...new Set(subs.filter((s) => s.overridden === overridden).map((s) => s.plan_id)),
  ];
  const [plans, children] = await Promise.all([
    deps.plans.findByIds(organizationId, ids(false)),
    deps.childPlans.findByIds(organizationId, ids(true)),
  ]);
  return new Map([...plans, ...children].map((p) => [p.id, p]));
}

/** The plans' public views by id (one lookup of taxes, metrics and add-ons for all). */
export async function planViewsOf(
  deps: CatalogDeps,
  organizationId: string,
  subs: Subscription[],
): Promise<Map<string, PlanView>> {
  const plans = [...(await plansOf(deps, organizationId, subs)).values()];
  const views = await planViews(deps, organizationId, plans);
  return new Map(views.map((v) => [v.svc_id, v]));
}

function planViewFor(views: Map<string, PlanView>, s: Subscription): PlanView {
  const view = views.get(s.plan_id);
  if (!view) throw AppError.internal(`plan ${s.plan_id} of subscription ${s.id} is missing`);
  // A private plan shows its parent's code, as the subscription's plan_code does.
  return { ...view, code: s.plan_code };
}

/** List items: the subscription alone. */
export async function presentSubscriptions(deps: CatalogDeps, organizationId: string, subs: Subscription[]) {
  const [views, sections] = await Promise.all([
    planViewsOf(deps, organizationId, subs),
    chosenSections(deps, organizationId, subs),
  ]);
  const now = deps.clock.now();
  return subs.map((s) => subscriptionView(s, planViewFor(views, s), now, sections));
}

/** Create and retrieve: the subscription with its plan and applicable usage thresholds. */
export async function presentSubscription(deps: CatalogDeps, s: Subscription) {
  const [views, sections] = await Promise.all([
    planViewsOf(deps, s.organization_id, [s]),
    chosenSections(deps, s.organization_id, [s]),
  ]);
  const plan = planViewFor(views, s);
  return {
    ...subscriptionView(s, plan, deps.clock.now(), sections),
    plan,
    applicable_usage_thresholds: s.progressive_billing_disabled ? [] : applicableUsageThresholds(plan),
  };
}
export type SubscriptionWithPlan = Awaited<ReturnType<typeof presentSubscription>>;

/** The event of a subscription's change, complete for read copies (the plan it is billed on included). */
export async function subscriptionEventOf(
  deps: CatalogDeps,
  type: SubscriptionEventType,
  s: Subscription,
  now: Date,
  requestId?: string,
  plans?: Map<string, PlanView>,
) {
  const views = plans ?? (await planViewsOf(deps, s.organization_id, [s]));
  const plan = planViewFor(views, s);
  // the sections it chose travel as ids (invoicing reads the live ones when it bills)
  const subscription = {
    ...subscriptionView(s, plan, now),
    plan_id: s.plan_id,
    timezone: s.timezone,
    invoice_custom_section_ids: chosenSectionIdsOf(s),
  };
  return subscriptionEvent(type, s.organization_id, { subscription, plan }, now, requestId);
}
