import type { PlanCopy, SubscriptionCopy, SubscriptionState } from "../../domain/read-copies";
import type { Versioned } from "./copy-repository";
import { IdsByKey } from "./ids-by-key";

const key = (organizationId: string, externalId: string) => `${organizationId}\u0000${externalId}`;
const startOf = (s: SubscriptionState) => s.started_at ?? s.subscription_at;

/**
 * Subscriptions and the plans they are billed on, in memory. A subscription points at its plan
 * by id, so a newer plan (plan.updated) reaches every subscription billed on it at once.
 */
export class SubscriptionIndex {
  private readonly plans = new Map<string, Versioned<PlanCopy>>();
  private readonly byId = new Map<string, Versioned<SubscriptionState>>();
  private readonly byExternalId = new IdsByKey();

  putPlan(copy: Versioned<PlanCopy>): boolean {
    const current = this.plans.get(copy.value.svc_id);
    if (current && current.version >= copy.version) return false;
    this.plans.set(copy.value.svc_id, copy);
    return true;
  }

  putSubscription(copy: Versioned<SubscriptionState>): boolean {
    const current = this.byId.get(copy.value.svc_id);
    if (current && current.version >= copy.version) return false;
    if (current)
      this.byExternalId.delete(key(current.value.organization_id, current.value.external_id), current.value.svc_id);
    this.byId.set(copy.value.svc_id, copy);
    this.byExternalId.add(key(copy.value.organization_id, copy.value.external_id), copy.value.svc_id);
    return true;
  }

  /** The active subscription of the external id (the latest started, should two be active). */
  active(organizationId: string, externalId: string): SubscriptionCopy | null {
    let best: SubscriptionCopy | null = null;
    for (const copy of this.copies(organizationId, externalId)) {
      if (copy.subscription.status !== "active") continue;
      if (!best || startOf(copy.subscription) > startOf(best.subscription)) best = copy;
    }
    return best;
  }

  /** Every subscription of the external id, newest first. */
  all(organizationId: string, externalId: string): SubscriptionCopy[] {
    const newest = (a: SubscriptionCopy, b: SubscriptionCopy) =>
      b.subscription.created_at.localeCompare(a.subscription.created_at) ||
      startOf(b.subscription).localeCompare(startOf(a.subscription));
    return [...this.copies(organizationId, externalId)].sort(newest);
  }

  get size(): { subscriptions: number; plans: number } {
    return { subscriptions: this.byId.size, plans: this.plans.size };
  }

  private *copies(organizationId: string, externalId: string): Generator<SubscriptionCopy> {
    for (const id of this.byExternalId.get(key(organizationId, externalId))) {
      const subscription = this.byId.get(id)!.value;
      const plan = this.plans.get(subscription.plan_id)?.value;
      // The plan always comes with the subscription's events; it must belong to the same organization.
      if (plan && plan.organization_id === organizationId)
        yield { organization_id: organizationId, subscription, plan };
    }
  }
}
