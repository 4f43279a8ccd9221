import { atFrozenTime } from "@billing/clock";
import { allocateOngoingUsage } from "@billing/pricing";
import type { WalletDeps } from "../deps";
import { fireThresholdRule } from "./fire-threshold-rule";

/**
 * The ongoing usage of some customers (those of these subscriptions, and these customers), asked
 * from invoicing once, spread over each customer's active wallets in the order they pay
 * (billing-rules §6). Runs at the organization's time: `frozenTime` when the caller knows it (an
 * event that carries it), else the organization's test clock is asked (the system clock for an
 * ordinary organization). A repeat recomputes the same figures. A wallet whose threshold rule's
 * threshold is reached is topped up (once per state).
 */
export async function refreshOngoingUsage(
  deps: WalletDeps,
  organizationId: string,
  of: { externalSubscriptionIds?: readonly string[]; customerIds?: readonly string[] },
  frozenTime?: Date,
): Promise<void> {
  // only customers holding wallets are priced (invoicing is told which): usage of the others changes no wallet
  const holders = await deps.wallets.customersWithWallets(organizationId);
  const customerIds = of.customerIds?.filter((id) => holders.includes(id)) ?? [];
  // (an empty only-list would mean "everyone" to invoicing: no holder, nothing to ask)
  if (holders.length === 0 || (customerIds.length === 0 && !of.externalSubscriptionIds?.length)) return;
  const frozen = frozenTime ?? (await deps.customers.frozenTime(organizationId));
  const ask = () =>
    deps.invoicing.ongoingUsage(organizationId, {
      externalSubscriptionIds: of.externalSubscriptionIds,
      customerIds,
      onlyCustomerIds: holders,
    });
  const customers = await (frozen ? atFrozenTime(frozen, ask) : ask());
  const wallets = await deps.wallets.activeOfCustomers(
    organizationId,
    customers.map((c) => c.customer_id),
  );
  const now = deps.clock.now();
  const withRules: string[] = [];
  await Promise.all(
    customers.flatMap((customer) => {
      const own = (wallets.get(customer.customer_id) ?? []).filter(
        (w) => !customer.currency || w.currency === customer.currency,
      );
      const shares = allocateOngoingUsage(
        own.map((w) => ({ id: w.id, balance_cents: w.balance_cents })),
        customer.usage_cents,
      );
      withRules.push(
        ...own
          .filter((w) => w.recurring_rules.some((r) => r.trigger === "threshold" && r.status === "active"))
          .map((w) => w.id),
      );
      return own.map((wallet) => deps.wallets.setOngoingUsage(wallet, shares.get(wallet.id) ?? 0, now));
    }),
  );
  for (const id of withRules) {
    const fresh = await deps.wallets.find(organizationId, id);
    if (fresh) await fireThresholdRule(deps, fresh);
  }
}
