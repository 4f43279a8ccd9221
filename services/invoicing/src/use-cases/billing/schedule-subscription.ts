import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { nextBilling } from "../../domain/billing-schedule";
import { lastEntryOf, nextEntryOf, sameEntry, type BillingEntry } from "../../domain/copies";
import type { BillingDeps } from "./deps";

/**
 * Decides a subscription's next billing from its copy as stored now: after `billed` was invoiced
 * (the billing pass), or after its copy changed (an event: a start schedules the first billing, a
 * termination replaces a later boundary by the termination invoice). One conditional write on the
 * copy's version and the entry it replaces: an event and a billing pass never lose each other's
 * decision, and a replica that finds the entry already moved changes nothing.
 */
export async function scheduleSubscription(
  deps: Pick<BillingDeps, "copies">,
  subscriptionId: string,
  billed?: BillingEntry,
): Promise<void> {
  await retryOnLostRace(`schedule of subscription ${subscriptionId}`, async () => {
    const copy = await deps.copies.subscription(subscriptionId);
    if (!copy) return undefined;
    const current = nextEntryOf(copy);
    if (billed) {
      if (!sameEntry(current, billed)) return undefined; // moved on already (another replica, a retry)
      const next = nextBilling(copy, billed);
      return (await deps.copies.setSchedule(copy.id, { version: copy.version, next: current }, { next, last: billed }))
        ? undefined
        : LOST_RACE;
    }
    const last = lastEntryOf(copy);
    const initial =
      !last && copy.plan.trial_period > 0
        ? await deps.copies.initialStartedAt(copy.organization_id, copy.subscription.external_id)
        : null;
    const next = nextBilling(copy, last, initial ?? undefined);
    if (sameEntry(current, next)) return undefined;
    return (await deps.copies.setSchedule(copy.id, { version: copy.version, next: current }, { next }))
      ? undefined
      : LOST_RACE;
  });
}
