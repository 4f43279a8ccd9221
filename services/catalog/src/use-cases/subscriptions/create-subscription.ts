import { Subjects } from "@billing/bus";
import { AppError } from "@billing/errors";
import type { BillingTimeName } from "../../domain/subscription";
import { checkEndingAt, checkSubscriptionCreate, type SubscriptionCreateFields } from "../../domain/subscription-rules";
import { Violations } from "../../domain/patch";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { applySubscriptionChange } from "./apply-subscription-change";
import { newSubscription } from "./new-subscription";
import { childPlanOf, type PlanOverrides } from "./plan-overrides";
import { presentSubscription, subscriptionEventOf, type SubscriptionWithPlan } from "./subscription-plan-refs";
import { resumeInterruptedUpgrade } from "./resume-interrupted-upgrade";
import { resolveSectionChoice } from "./subscription-sections";
import { switchPlan } from "./switch-plan";
import { externalIdTaken, insertSubscription } from "./write-subscription";

export interface CreateSubscriptionInput extends SubscriptionCreateFields {
  plan_overrides?: PlanOverrides | null;
}

/**
 * POST /subscriptions. Everything is checked before anything is written: the fields, the plan
 * (404 plan_not_found), the overrides (as a plan change), the external id's owner; then the
 * customer is found or created (Lago's behaviour) and the subscription is started, changed,
 * upgraded or downgraded.
 */
export async function createSubscription(
  deps: CatalogDeps,
  organizationId: string,
  input: CreateSubscriptionInput,
  requestId?: string,
): Promise<SubscriptionWithPlan> {
  const { violations, subscriptionAt, endingAt } = checkSubscriptionCreate(input);
  refuseIfInvalid(violations);
  const plan = await deps.plans.findLive(organizationId, input.plan_code!);
  if (!plan) throw AppError.notFound("plan");
  const now = deps.clock.now();
  const externalId = input.external_id!;
  const current = await deps.subscriptions.findByExternalId(organizationId, externalId, ["active", "pending"]);
  if (current && current.external_customer_id !== input.external_customer_id) throw externalIdTaken();
  const sections = await resolveSectionChoice(deps, organizationId, input.invoice_custom_section);

  if (current && current.plan_code === plan.code) {
    // The same plan again: Lago changes the subscription in place (name, ending_at, overrides).
    const changed = await applySubscriptionChange(
      deps,
      current,
      {
        name: input.name,
        endingAt,
        overrides: input.plan_overrides ?? undefined,
        progressiveBillingDisabled: input.progressive_billing_disabled,
        sections,
      },
      requestId,
    );
    return presentSubscription(deps, changed);
  }

  const child = input.plan_overrides ? await childPlanOf(deps, plan, input.plan_overrides, now) : null;
  const billed = child ?? plan;
  const start = current ? current.subscription_at : (subscriptionAt ?? now);
  const v = new Violations();
  checkEndingAt(v, endingAt ?? null, start);
  refuseIfInvalid(v.result());

  const customer = await deps.customers.ensure(
    organizationId,
    input.external_customer_id!,
    billed.amount_currency,
    requestId,
  );
  if (customer.currency && customer.currency !== billed.amount_currency)
    throw AppError.validation({ currency: ["currencies_does_not_match"] });
  if (child) await deps.childPlans.insert(child);

  if (current?.status === "active") {
    const shown = await switchPlan(deps, { current, plan, billed, name: input.name, endingAt, sections, requestId });
    return presentSubscription(deps, shown);
  }
  if (current) {
    // A subscription that has not started yet simply takes the new plan.
    const changed = await applySubscriptionChange(
      deps,
      current,
      { name: input.name, endingAt, subscriptionAt, plan, billed, sections },
      requestId,
    );
    return presentSubscription(deps, changed);
  }

  const resumed = await resumeInterruptedUpgrade(deps, {
    organizationId,
    externalId,
    externalCustomerId: customer.external_id,
    plan,
    billed,
    name: input.name,
    endingAt,
    sections,
    requestId,
  });
  if (resumed) return presentSubscription(deps, resumed);
  const subscription = newSubscription({
    organizationId,
    externalId,
    customer,
    plan,
    billed,
    now,
    name: input.name ?? null,
    billingTime: (input.billing_time ?? "calendar") as BillingTimeName,
    subscriptionAt: start,
    endingAt: endingAt ?? null,
    progressiveBillingDisabled: input.progressive_billing_disabled,
    sections,
  });
  const type =
    subscription.status === "active" ? Subjects.catalog.subscriptionStarted : Subjects.catalog.subscriptionUpdated;
  await insertSubscription(deps, subscription, await subscriptionEventOf(deps, type, subscription, now, requestId));
  return presentSubscription(deps, subscription);
}
