import type { SectionChoiceInput } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { SubscriptionStatus } from "../../domain/subscription";
import { checkSubscriptionUpdate } from "../../domain/subscription-rules";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { applySubscriptionChange } from "./apply-subscription-change";
import type { PlanOverrides } from "./plan-overrides";
import { presentSubscription, type SubscriptionWithPlan } from "./subscription-plan-refs";
import { resolveSectionChoice } from "./subscription-sections";

export interface UpdateSubscriptionInput {
  name?: string | null;
  ending_at?: string | null;
  subscription_at?: string | null;
  plan_overrides?: PlanOverrides | null;
  progressive_billing_disabled?: boolean;
  invoice_custom_section?: SectionChoiceInput;
}

/** PUT /subscriptions/{external_id}: `status` picks pending or active; without it the active one, else the pending one. */
export async function updateSubscription(
  deps: CatalogDeps,
  organizationId: string,
  externalId: string,
  status: SubscriptionStatus | undefined,
  input: UpdateSubscriptionInput,
  requestId?: string,
): Promise<SubscriptionWithPlan> {
  const { violations, subscriptionAt, endingAt } = checkSubscriptionUpdate(input);
  refuseIfInvalid(violations);
  const current = await deps.subscriptions.findByExternalId(
    organizationId,
    externalId,
    status ? [status] : ["active", "pending"],
  );
  if (!current) throw AppError.notFound("subscription");
  const sections = await resolveSectionChoice(deps, organizationId, input.invoice_custom_section);
  const changed = await applySubscriptionChange(
    deps,
    current,
    {
      name: input.name,
      endingAt,
      subscriptionAt: subscriptionAt ?? undefined,
      overrides: input.plan_overrides ?? undefined,
      progressiveBillingDisabled: input.progressive_billing_disabled,
      sections,
    },
    requestId,
  );
  return presentSubscription(deps, changed);
}
