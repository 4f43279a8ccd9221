import type { PlanViewData, SubscriptionViewData } from "@billing/contracts";
import { isUpgradeTermination } from "../../domain/billing-schedule";
import type { SubscriptionCopy } from "../../domain/copies";
import { billDueSubscriptions } from "../billing/bill-due-subscriptions";
import { creditTermination } from "../credit-notes/credit-termination";
import { scheduleSubscription } from "../billing/schedule-subscription";
import type { BillingDeps } from "../billing/deps";

export interface SubscriptionChange {
  organizationId: string;
  data: { subscription: SubscriptionViewData; plan: PlanViewData };
  /** occurred_at × 4 + lifecycle rank: a redelivered, late or reordered event changes nothing */
  version: number;
  /** produced for a sandbox organization */
  sandbox: boolean;
}

/**
 * An upgrade is billed on ONE invoice (the old plan's termination and the new plan's start, as
 * Lago does): the event of either half waits for the other half's copy AND schedule, and whichever
 * finds both bills them. Each half stores its copy and schedule before it looks, so at least one
 * of them sees the other.
 */
const isUpgradeHalf = (copy: SubscriptionCopy) =>
  isUpgradeTermination(copy) || (copy.subscription.status === "active" && !!copy.subscription.previous_plan_code);

async function upgradeHalfMissing(deps: BillingDeps, copy: SubscriptionCopy): Promise<boolean> {
  const s = copy.subscription;
  if (!isUpgradeHalf(copy)) return false;
  const upgrading = isUpgradeTermination(copy);
  const others = (await deps.copies.subscriptionsOf(copy.organization_id, s.external_id)).filter(
    (c) => c.id !== copy.id,
  );
  if (upgrading) {
    const successor = others.find(
      (c) => c.subscription.status === "active" && c.subscription.started_at === s.terminated_at,
    );
    return !successor || (successor.next_billing_at === null && successor.last_billed_at === null);
  }
  if (others.some((c) => c.subscription.status === "active")) return true; // its predecessor's termination is not in yet
  const predecessor = others.find(
    (c) => c.subscription.status === "terminated" && c.subscription.terminated_at === s.started_at,
  );
  return (
    !!predecessor &&
    predecessor.next_billing_reason !== null &&
    predecessor.next_billing_reason !== "subscription_terminating"
  );
}

/**
 * billing.catalog.subscription.*: the subscription's copy (the newest version wins), its schedule
 * decided again (a start schedules its first billing, a termination its last), and what that made
 * due billed at once (a pay-in-advance plan's starting invoice, the termination or upgrade
 * invoice): within seconds of the change, and idempotently (a redelivery finds it done). A
 * customer whose copy is not there yet is billed when it arrives.
 */
export async function copySubscription(deps: BillingDeps, change: SubscriptionChange): Promise<void> {
  const { subscription: s, plan } = change.data;
  const fields = {
    id: s.svc_id,
    organization_id: change.organizationId,
    subscription: s,
    plan,
    sandbox: change.sandbox,
    version: change.version,
  };
  await deps.copies.putSubscription(fields);
  await deps.copies.putUsageKey(fields);
  await scheduleSubscription(deps, s.svc_id);
  const copy = await deps.copies.subscription(s.svc_id);
  if (!copy) return;
  // a pay-in-advance plan's unused days credited first, so its termination or upgrade invoice takes the credit
  await creditTermination(deps, copy);
  const due = !!copy.next_billing_at && copy.next_billing_at <= deps.clock.now();
  // an upgrade's new half may not be due itself (an arrears plan) while the old half's termination is
  if (!due && !isUpgradeHalf(copy)) return;
  if (await upgradeHalfMissing(deps, copy)) return;
  // without the customer's copy yet (its event travels on another stream) the billing waits for it
  await billDueSubscriptions(deps, { organizationId: change.organizationId, customerId: s.svc_customer_id });
}
