import { sectionChoiceInputOf, type CatalogMessages as M } from "@billing/contracts";
import type { SubscriptionStatus } from "../domain/subscription";
import type { SubscriptionView } from "../domain/subscription-view";
import type { SubscriptionFilter } from "../persistence/subscription-repository";
import type { PlanView } from "../domain/views";
import type { CreateSubscriptionInput } from "../use-cases/subscriptions/create-subscription";
import type { PlanOverrides } from "../use-cases/subscriptions/plan-overrides";
import { patchOf } from "./patch-messages";
import { chargeFilterOf, minimumCommitmentOf, planMessage, sentPropertiesOf, usageThresholdsOf } from "./plan-messages";

/** Proto ⇄ domain for subscriptions. */

/** The proto PlanOverridesInput → the use cases' PlanOverrides. */
export function overridesOf(m: M.PlanOverridesInput__Output | null | undefined): PlanOverrides | null {
  if (!m) return null;
  return {
    patch: patchOf(m, [
      "amount_cents",
      "amount_currency",
      "description",
      "invoice_display_name",
      "name",
      "trial_period",
    ]),
    taxCodes: m.tax_codes_set ? (m.tax_codes ?? []) : undefined,
    charges: m.charges_set
      ? (m.charges ?? []).map((c) => ({
          id: c.id,
          ...patchOf(c, ["invoice_display_name", "min_amount_cents"]),
          properties: sentPropertiesOf(c.properties),
          filters: c.filters_set ? (c.filters ?? []).map(chargeFilterOf) : undefined,
          tax_codes: c.tax_codes_set ? (c.tax_codes ?? []) : undefined,
        }))
      : undefined,
    minimumCommitment: minimumCommitmentOf(m),
    usageThresholds: usageThresholdsOf(m),
  };
}

/** The proto SubscriptionInput → the use cases' input (absent = not sent, null_fields = sent as null). */
export function subscriptionInputOf(m: M.SubscriptionInput__Output | null): CreateSubscriptionInput {
  const fields = patchOf(m, [
    "external_customer_id",
    "plan_code",
    "external_id",
    "name",
    "billing_time",
    "subscription_at",
    "ending_at",
  ]);
  // null (sent as null) = false, as Lago's `params[:progressive_billing_disabled] || false`
  const disabled =
    m?.progressive_billing_disabled != null
      ? { progressive_billing_disabled: m.progressive_billing_disabled }
      : m?.null_fields?.includes("progressive_billing_disabled")
        ? { progressive_billing_disabled: false }
        : {};
  const choice = sectionChoiceInputOf(m?.invoice_custom_section);
  return {
    ...fields,
    ...disabled,
    ...(choice && { invoice_custom_section: choice }),
    plan_overrides: overridesOf(m?.plan_overrides),
  };
}

/** A request's optional `status` (empty = not sent: the use case's default). */
export const subscriptionStatusOf = (status: string | undefined): SubscriptionStatus | undefined =>
  (status || undefined) as SubscriptionStatus | undefined;

/** ListSubscriptionsRequest → the repository's filter: active subscriptions unless statuses are sent. */
export const subscriptionFilterOf = (m: M.ListSubscriptionsRequest__Output): SubscriptionFilter => ({
  externalCustomerId: m.external_customer_id ?? undefined,
  planCode: m.plan_code ?? undefined,
  statuses: (m.statuses?.length ? m.statuses : ["active"]) as SubscriptionStatus[],
});

/** A subscription view (with or without its plan) → the proto Subscription. */
export function subscriptionMessage(
  s: SubscriptionView & {
    plan?: PlanView;
    applicable_usage_thresholds?: Array<{
      threshold_display_name: string | null;
      amount_cents: number;
      recurring: boolean;
    }>;
  },
) {
  return {
    ...s,
    plan: s.plan ? planMessage(s.plan) : undefined,
    applicable_usage_thresholds: s.applicable_usage_thresholds ?? [],
  };
}
