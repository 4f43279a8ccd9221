import { PoisonMessage, Subjects, type Envelope } from "@billing/bus";
import { metricOf, planOf, subscriptionOf } from "./catalog-views";
import type { CopyStores } from "../../persistence/read-copies/copy-stores";
import type { MemoryCopies } from "../../persistence/read-copies/memory-copies";

const C = Subjects.catalog;
const METRIC = new Set<string>([C.billableMetricCreated, C.billableMetricUpdated, C.billableMetricDeleted]);
const PLAN = new Set<string>([C.planUpdated, C.planDeleted]);
const SUBSCRIPTION = new Set<string>([C.subscriptionStarted, C.subscriptionUpdated, C.subscriptionTerminated, C.subscriptionCanceled]);

/** The catalog subjects the read copies follow. */
export const COPIED_SUBJECTS = [...METRIC, ...PLAN, ...SUBSCRIPTION];

/** Parses a view, or refuses the message for good: a malformed view never becomes valid on redelivery. */
function parse<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new PoisonMessage(`malformed ${what} event: ${(err as Error).message}`);
  }
}

/**
 * Applies one catalog event: MongoDB first (a conditional write that keeps the newest version),
 * then memory (same rule), so a redelivered, late or reordered event changes nothing it should not.
 */
export function catalogEventApplier(stores: CopyStores, memory: MemoryCopies) {
  return async (envelope: Envelope): Promise<void> => {
    const org = envelope.organization_id;
    if (METRIC.has(envelope.type)) {
      const metric = parse("billable metric", () => metricOf(envelope));
      await stores.metrics.put(metric.value.svc_id, org, metric);
      memory.putMetric(metric);
    } else if (PLAN.has(envelope.type)) {
      const plan = parse("plan", () => planOf(org, (envelope.data as { plan?: unknown })?.plan));
      await stores.plans.put(plan.value.svc_id, org, plan);
      memory.putPlan(plan);
    } else if (SUBSCRIPTION.has(envelope.type)) {
      const { subscription, plan } = parse("subscription", () => subscriptionOf(envelope));
      await stores.plans.put(plan.value.svc_id, org, plan);
      await stores.subscriptions.put(subscription.value.svc_id, org, subscription);
      memory.putPlan(plan);
      memory.putSubscription(subscription);
    }
  };
}
