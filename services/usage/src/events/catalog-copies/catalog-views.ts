import { PoisonMessage, Subjects, type Envelope } from "@billing/bus";
import { eventData, type PlanViewData } from "@billing/contracts";
import type { MetricCopy, PlanCopy, SubscriptionState } from "../../domain/read-copies";
import type { Versioned } from "../../persistence/read-copies/copy-repository";

const C = Subjects.catalog;

/** The catalog subjects the read copies follow, by what they carry. */
export const METRIC_SUBJECTS = [C.billableMetricCreated, C.billableMetricUpdated, C.billableMetricDeleted] as const;
export const PLAN_SUBJECTS = [C.planUpdated, C.planDeleted] as const;
export const SUBSCRIPTION_SUBJECTS = [
  C.subscriptionStarted,
  C.subscriptionUpdated,
  C.subscriptionTerminated,
  C.subscriptionCanceled,
] as const;

type Of<S extends readonly string[]> = Envelope & { type: S[number] };

/** An instant of a view, as a version; a malformed one never becomes valid on redelivery. */
const ms = (iso: string) => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new PoisonMessage(`not an instant: ${iso}`);
  return t;
};

/** A subscription's lifecycle rank: on the same instant, the later state wins. */
const STATUS_RANK: Record<SubscriptionState["status"], number> = { pending: 0, active: 1, terminated: 2, canceled: 2 };

/**
 * billing.catalog.billable_metric.*: the contract's view (parsed by `eventData`, PoisonMessage when
 * malformed), versioned by the metric's updated_at (it always moves forward).
 */
export function metricCopy(envelope: Of<typeof METRIC_SUBJECTS>): Versioned<MetricCopy> {
  const view = eventData(envelope).billable_metric;
  return { value: { ...view, organization_id: envelope.organization_id }, version: ms(view.updated_at) };
}

/** A plan view (plan.* `data.plan`, or a subscription event's `data.plan`): versioned by its updated_at. */
function planCopy(organizationId: string, view: PlanViewData): Versioned<PlanCopy> {
  return { value: { ...view, organization_id: organizationId }, version: ms(view.updated_at) };
}

/** billing.catalog.plan.updated|deleted. */
export function planEventCopy(envelope: Of<typeof PLAN_SUBJECTS>): Versioned<PlanCopy> {
  return planCopy(envelope.organization_id, eventData(envelope).plan);
}

/**
 * billing.catalog.subscription.*: the subscription (versioned by the event's occurred_at, ties
 * broken by lifecycle: occurred_at × 4 + rank) and the plan it is billed on.
 */
export function subscriptionCopies(envelope: Of<typeof SUBSCRIPTION_SUBJECTS>): {
  subscription: Versioned<SubscriptionState>;
  plan: Versioned<PlanCopy>;
} {
  const data = eventData(envelope);
  const version = ms(envelope.occurred_at) * 4 + STATUS_RANK[data.subscription.status];
  return {
    subscription: { value: { ...data.subscription, organization_id: envelope.organization_id }, version },
    plan: planCopy(envelope.organization_id, data.plan),
  };
}
