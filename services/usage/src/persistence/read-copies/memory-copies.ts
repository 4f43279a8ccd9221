import type {
  CatalogCopies,
  MetricCopy,
  PlanCopy,
  SubscriptionCopy,
  SubscriptionState,
} from "../../domain/read-copies";
import type { Versioned } from "./copy-repository";
import { MetricIndex } from "./metric-index";
import { SubscriptionIndex } from "./subscription-index";

/** The read copies in memory: what every request reads (no I/O). Each put keeps the newest version only. */
export class MemoryCopies implements CatalogCopies {
  private readonly metrics = new MetricIndex();
  private readonly subscriptionIndex = new SubscriptionIndex();

  putMetric(copy: Versioned<MetricCopy>): boolean {
    return this.metrics.put(copy);
  }

  putPlan(copy: Versioned<PlanCopy>): boolean {
    return this.subscriptionIndex.putPlan(copy);
  }

  putSubscription(copy: Versioned<SubscriptionState>): boolean {
    return this.subscriptionIndex.putSubscription(copy);
  }

  metricByCode(organizationId: string, code: string): MetricCopy | null {
    return this.metrics.live(organizationId, code);
  }

  activeSubscription(organizationId: string, externalId: string): SubscriptionCopy | null {
    return this.subscriptionIndex.active(organizationId, externalId);
  }

  subscriptions(organizationId: string, externalId: string): SubscriptionCopy[] {
    return this.subscriptionIndex.all(organizationId, externalId);
  }

  counts() {
    return { metrics: this.metrics.size, ...this.subscriptionIndex.size };
  }
}
