import type { RpcHandler } from "@billing/grpc";
import { pageMeta } from "@billing/mongo";
import type { SubscriptionStatus } from "../domain/subscription";
import type { SubscriptionView } from "../domain/subscription-view";
import type { PlanView } from "../domain/views";
import type { CatalogDeps } from "../use-cases/deps";
import { createSubscription, type CreateSubscriptionInput } from "../use-cases/subscriptions/create-subscription";
import { endSubscription } from "../use-cases/subscriptions/end-subscription";
import type { PlanOverrides } from "../use-cases/subscriptions/plan-overrides";
import { getSubscription, listSubscriptions } from "../use-cases/subscriptions/read-subscriptions";
import { updateSubscription } from "../use-cases/subscriptions/update-subscription";
import { pageOf, patchOf, type PageMessage } from "./messages";
import { chargeFilterOf, json, minimumCommitmentOf, planMessage, usageThresholdsOf } from "./plan-handlers";

type Message = Record<string, any>;
type Key = { organization_id: string; external_id: string; status?: string };

/** The proto PlanOverridesInput → the use cases' PlanOverrides. */
export function overridesOf(m: Message | null | undefined): PlanOverrides | null {
  if (!m) return null;
  return {
    patch: patchOf(m, ["amount_cents", "amount_currency", "description", "invoice_display_name", "name", "trial_period"]),
    taxCodes: m.tax_codes_set ? (m.tax_codes ?? []) : undefined,
    charges: m.charges_set
      ? (m.charges ?? []).map((c: Message) => ({
          id: c.id,
          ...patchOf(c, ["invoice_display_name", "min_amount_cents"]),
          properties: json(c.properties_json),
          filters: c.filters_set ? (c.filters ?? []).map(chargeFilterOf) : undefined,
          tax_codes: c.tax_codes_set ? (c.tax_codes ?? []) : undefined,
        }))
      : undefined,
    minimumCommitment: minimumCommitmentOf(m),
    usageThresholds: usageThresholdsOf(m),
  };
}

/** The proto SubscriptionInput → the use cases' input (absent = not sent, null_fields = sent as null). */
export function subscriptionInputOf(m: Message | null): CreateSubscriptionInput {
  const fields = patchOf(m, ["external_customer_id", "plan_code", "external_id", "name", "billing_time", "subscription_at", "ending_at"]);
  return { ...fields, plan_overrides: overridesOf(m?.plan_overrides) };
}

/** A subscription view (with or without its plan) → the proto Subscription. */
export function subscriptionMessage(s: SubscriptionView & { plan?: PlanView; applicable_usage_thresholds?: unknown[] }) {
  return { ...s, plan: s.plan ? planMessage(s.plan) : undefined, applicable_usage_thresholds: s.applicable_usage_thresholds ?? [] };
}

/** billing.catalog.v1.SubscriptionService: proto in, use case, proto out. */
export function subscriptionHandlers(deps: CatalogDeps): Record<string, RpcHandler> {
  return {
    CreateSubscription: async (req: { organization_id: string; subscription: Message | null }, ctx) => ({
      subscription: subscriptionMessage(await createSubscription(deps, req.organization_id, subscriptionInputOf(req.subscription), ctx.requestId)),
    }),
    GetSubscription: async (req: Key) => ({
      subscription: subscriptionMessage(await getSubscription(deps, req.organization_id, req.external_id, (req.status || undefined) as SubscriptionStatus | undefined)),
    }),
    UpdateSubscription: async (req: Key & { subscription: Message | null }, ctx) => ({
      subscription: subscriptionMessage(
        await updateSubscription(
          deps, req.organization_id, req.external_id, (req.status || undefined) as SubscriptionStatus | undefined,
          subscriptionInputOf(req.subscription), ctx.requestId,
        ),
      ),
    }),
    EndSubscription: async (req: Key & { on_termination_credit_note?: string; on_termination_invoice?: string }, ctx) => ({
      subscription: subscriptionMessage(await endSubscription(deps, req.organization_id, req.external_id, req, ctx.requestId)),
    }),
    ListSubscriptions: async (req: { organization_id: string; external_customer_id?: string; plan_code?: string; statuses: string[] } & PageMessage) => {
      const page = pageOf(req);
      const statuses = (req.statuses?.length ? req.statuses : ["active"]) as SubscriptionStatus[];
      const filter = { externalCustomerId: req.external_customer_id ?? undefined, planCode: req.plan_code ?? undefined, statuses };
      const { items, total } = await listSubscriptions(deps, req.organization_id, filter, page);
      return { subscriptions: items.map(subscriptionMessage), meta: pageMeta(total, page) };
    },
  };
}
