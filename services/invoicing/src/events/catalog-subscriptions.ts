import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import { billingBoundaryAfter } from "../domain/billing-schedule";
import type { SubscriptionCopy } from "../domain/copies";
import { billSubscriptionChange } from "../use-cases/billing/bill-subscription-change";
import type { InvoicingDeps } from "../use-cases/deps";

const C = Subjects.catalog;
export const SUBSCRIPTION_SUBJECTS = [C.subscriptionStarted, C.subscriptionUpdated, C.subscriptionTerminated, C.subscriptionCanceled];
const RANK: Record<string, number> = { pending: 0, active: 1, terminated: 2, canceled: 2 };

/**
 * billing.catalog.subscription.*: keeps the subscription's copy (the newest version wins: a
 * redelivered, late or reordered event changes nothing) and its billing schedule, then issues the
 * invoices the change calls for. A subscription becoming active is first due at the end of its
 * first period; a terminated one is no longer billed periodically.
 */
export function subscriptionEventHandler(deps: InvoicingDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, SUBSCRIPTION_SUBJECTS)) return;
    const data = eventData(envelope);
    const s = data.subscription;
    const stored = await deps.copies.subscription(s.svc_id);
    const version = Date.parse(envelope.occurred_at) * 4 + (RANK[s.status] ?? 0);
    const wasActive = stored?.subscription.status === "active";
    const next =
      s.status !== "active" ? null : wasActive && stored ? stored.next_billing_at : billingBoundaryAfter(s, data.plan, new Date(s.started_at ?? s.subscription_at));
    const copy: SubscriptionCopy = {
      id: s.svc_id, organization_id: envelope.organization_id, subscription: s, plan: data.plan,
      sandbox: stored?.sandbox ?? envelope.frozen_time !== undefined, version, next_billing_at: next,
    };
    if (!(await deps.copies.putSubscription(copy))) return; // an older event
    if (envelope.type === C.subscriptionStarted) await billSubscriptionChange(deps, copy, "started");
    if (envelope.type === C.subscriptionTerminated) await billSubscriptionChange(deps, copy, "terminated");
  };
}
