import type { BillingEntry, SubscriptionCopy } from "../../domain/copies";
import { billLine } from "../../domain/invoice-lines";
import type { PricedLine } from "../../domain/invoice-fees";
import type { FinalizeDeps } from "../invoices/deps";

/** A subscription's billing entry to put on an invoice. */
export interface LineRequest {
  copy: SubscriptionCopy;
  entry: BillingEntry;
}

/**
 * The lines of many invoices priced together: spans and base fees from the pricing library, and
 * the usage of every line that bills charges from the usage service in ONE call (consistent with
 * every event acknowledged before it: an invoice never misses acknowledged usage).
 */
export async function priceLines(
  deps: Pick<FinalizeDeps, "clock" | "copies" | "invoices" | "usage">,
  requests: readonly LineRequest[],
  consistent = true,
): Promise<PricedLine[]> {
  const billed = await Promise.all(
    requests.map(async ({ copy, entry }) => {
      // a trial counts from the first start of the external id (upgrades don't restart it)
      const initial =
        copy.plan.trial_period > 0
          ? await deps.copies.initialStartedAt(copy.organization_id, copy.subscription.external_id)
          : null;
      return { copy, ...billLine(copy, entry, initial ?? undefined) };
    }),
  );
  // events acknowledged after this instant cannot be on these invoices (an audit reports them as late)
  const usageReadAt = deps.clock.now();
  const asks = billed.flatMap((b, index) =>
    b.periods.charges ? [{ index, charges: b.periods.charges, copy: b.copy }] : [],
  );
  const priced = await deps.usage.chargeUsage(
    asks.map(({ copy, charges, index }) => ({
      organizationId: copy.organization_id,
      subscriptionId: copy.id,
      externalSubscriptionId: copy.subscription.external_id,
      from: charges.from_datetime,
      to: charges.to_datetime,
      periodDays: charges.period_days,
      billedDays: charges.billed_days,
      // a recurring metric's pay-in-advance units are billed again for the period that starts; not when the subscription ends (Lago)
      includePayInAdvance: billed[index]!.line.reason !== "subscription_terminating",
    })),
    consistent,
  );
  const feesOf = new Map(asks.map((ask, i) => [ask.index, priced[i]?.fees ?? []]));
  // a minimum commitment is measured over its whole plan period: the fees billed before count too
  const prior = await Promise.all(
    billed.map((b) =>
      b.copy.plan.minimum_commitment && b.periods.commitment
        ? deps.invoices.feesBilledBefore(b.copy.organization_id, b.copy.id, b.line.at)
        : Promise.resolve([]),
    ),
  );
  return billed.map((b, index) => ({
    copy: b.copy,
    line: b.line,
    periods: b.periods,
    chargeFees: feesOf.get(index) ?? [],
    priorFees: prior[index],
    usageReadAt,
  }));
}
