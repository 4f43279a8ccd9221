import type { Envelope } from "@billing/bus";
import { isEvent } from "@billing/contracts";
import type { CopyStores } from "../../persistence/read-copies/copy-stores";
import type { MemoryCopies } from "../../persistence/read-copies/memory-copies";
import {
  metricCopy,
  METRIC_SUBJECTS,
  planEventCopy,
  PLAN_SUBJECTS,
  subscriptionCopies,
  SUBSCRIPTION_SUBJECTS,
} from "./catalog-views";

/** The catalog subjects the read copies follow. */
export const COPIED_SUBJECTS = [...METRIC_SUBJECTS, ...PLAN_SUBJECTS, ...SUBSCRIPTION_SUBJECTS];

/**
 * Applies one catalog event: MongoDB first (a conditional write that keeps the newest version),
 * then memory (same rule), so a redelivered, late or reordered event changes nothing it should not.
 * A malformed event throws PoisonMessage (from the contracts' `eventData`): it is parked in dead_letters, never
 * retried, and nothing of it is stored.
 */
export function catalogEventApplier(stores: CopyStores, memory: MemoryCopies) {
  return async (envelope: Envelope): Promise<void> => {
    const org = envelope.organization_id;
    if (isEvent(envelope, METRIC_SUBJECTS)) {
      const metric = metricCopy(envelope);
      await stores.metrics.put(metric.value.svc_id, org, metric);
      memory.putMetric(metric);
    } else if (isEvent(envelope, PLAN_SUBJECTS)) {
      const plan = planEventCopy(envelope);
      await stores.plans.put(plan.value.svc_id, org, plan);
      memory.putPlan(plan);
    } else if (isEvent(envelope, SUBSCRIPTION_SUBJECTS)) {
      const { subscription, plan } = subscriptionCopies(envelope);
      await stores.plans.put(plan.value.svc_id, org, plan);
      await stores.subscriptions.put(subscription.value.svc_id, org, subscription);
      memory.putPlan(plan);
      memory.putSubscription(subscription);
    }
  };
}

/** Applies one catalog event to this process's memory only (same newest-version rule; see memory-follower.ts). */
export function applyToMemory(memory: MemoryCopies, envelope: Envelope): void {
  if (isEvent(envelope, METRIC_SUBJECTS)) memory.putMetric(metricCopy(envelope));
  else if (isEvent(envelope, PLAN_SUBJECTS)) memory.putPlan(planEventCopy(envelope));
  else if (isEvent(envelope, SUBSCRIPTION_SUBJECTS)) {
    const { subscription, plan } = subscriptionCopies(envelope);
    memory.putPlan(plan);
    memory.putSubscription(subscription);
  }
}
