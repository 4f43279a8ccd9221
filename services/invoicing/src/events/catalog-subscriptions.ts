import { Subjects, type Envelope } from "@billing/bus";
import { eventData, isEvent } from "@billing/contracts";
import { copySubscription } from "../use-cases/copies/copy-subscription";
import type { BillingDeps } from "../use-cases/billing/deps";

const C = Subjects.catalog;
export const SUBSCRIPTION_SUBJECTS = [
  C.subscriptionStarted,
  C.subscriptionUpdated,
  C.subscriptionTerminated,
  C.subscriptionCanceled,
];
/** Within one instant, a later lifecycle state wins over an earlier one. */
const RANK: Record<string, number> = { pending: 0, active: 1, terminated: 2, canceled: 2 };

/** billing.catalog.subscription.*, parsed with the contract's schema: the copy, its schedule, what it made due. */
export function subscriptionEventHandler(deps: BillingDeps) {
  return async (envelope: Envelope): Promise<void> => {
    if (!isEvent(envelope, SUBSCRIPTION_SUBJECTS)) return;
    const data = eventData(envelope);
    await copySubscription(deps, {
      organizationId: envelope.organization_id,
      data,
      version: Date.parse(envelope.occurred_at) * 4 + (RANK[data.subscription.status] ?? 0),
      sandbox: envelope.frozen_time !== undefined,
    });
  };
}
