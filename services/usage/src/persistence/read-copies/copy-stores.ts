import type { Connection } from "mongoose";
import type { MetricCopy, PlanCopy, SubscriptionState } from "../../domain/read-copies";
import { registerCopyModels } from "./copy-models";
import { CopyRepository } from "./copy-repository";
import type { MemoryCopies } from "./memory-copies";

/** The read copies in MongoDB: what survives a restart. */
export interface CopyStores {
  metrics: CopyRepository<MetricCopy>;
  plans: CopyRepository<PlanCopy>;
  subscriptions: CopyRepository<SubscriptionState>;
}

export function copyStores(connection: Connection): CopyStores {
  const models = registerCopyModels(connection);
  return {
    metrics: new CopyRepository<MetricCopy>(models.metrics),
    plans: new CopyRepository<PlanCopy>(models.plans),
    subscriptions: new CopyRepository<SubscriptionState>(models.subscriptions),
  };
}

/** Start-up: everything stored goes into memory (plans before the subscriptions that point at them). */
export async function loadCopies(stores: CopyStores, memory: MemoryCopies): Promise<void> {
  const [metrics, plans, subscriptions] = await Promise.all([
    stores.metrics.all(),
    stores.plans.all(),
    stores.subscriptions.all(),
  ]);
  for (const copy of metrics) memory.putMetric(copy);
  for (const copy of plans) memory.putPlan(copy);
  for (const copy of subscriptions) memory.putSubscription(copy);
}
