import type { Envelope } from "@billing/bus";
import { billableMetricEventData, planView, subscriptionEventData } from "@billing/contracts";
import type { MetricCopy, PlanCopy, SubscriptionState } from "../../domain/read-copies";
import type { Versioned } from "../../persistence/read-copies/copy-repository";

const ms = (iso: string) => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`not an instant: ${iso}`);
  return t;
};

/** A subscription's lifecycle rank: on the same instant, the later state wins. */
const STATUS_RANK: Record<string, number> = { pending: 0, active: 1, terminated: 2, canceled: 2 };

/** billing.catalog.billable_metric.*: versioned by the metric's updated_at (it always moves forward). */
export function metricOf(envelope: Envelope): Versioned<MetricCopy> {
  const view = billableMetricEventData.parse(envelope.data).billable_metric;
  return { value: { ...view, organization_id: envelope.organization_id }, version: ms(view.updated_at) };
}

/** A plan view (plan.* `data.plan` or a subscription event's `data.plan`): versioned by its updated_at. */
export function planOf(organizationId: string, plan: unknown): Versioned<PlanCopy> {
  const view = planView.parse(plan);
  return { value: { ...view, organization_id: organizationId }, version: ms(view.updated_at) };
}

/**
 * billing.catalog.subscription.*: the subscription (versioned by the event's occurred_at, ties
 * broken by lifecycle) and the plan it is billed on.
 */
export function subscriptionOf(envelope: Envelope): { subscription: Versioned<SubscriptionState>; plan: Versioned<PlanCopy> } {
  const data = subscriptionEventData.parse(envelope.data);
  const view = data.subscription;
  const version = ms(envelope.occurred_at) * 4 + (STATUS_RANK[view.status] ?? 0);
  return {
    subscription: { value: { ...view, organization_id: envelope.organization_id }, version },
    plan: { value: { ...data.plan, organization_id: envelope.organization_id }, version: ms(data.plan.updated_at) },
  };
}
