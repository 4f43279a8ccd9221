import { sumCents } from "@billing/pricing";
import type { UsageDeps } from "./deps";
import { getCurrentUsage } from "./get-current-usage";

export interface CustomerOngoingUsage {
  customer_id: string;
  usage_cents: number;
  currency: string;
}

/**
 * The ongoing usage of the customers of these subscriptions (the wallet service subtracts it from
 * their wallets): each customer's active subscriptions' current-period usage, taxes included, as
 * current_usage prices it now. One answer per customer, whatever the number of events that made
 * it change. Subscriptions invoicing does not know (yet) are left out.
 */
export async function getOngoingUsage(
  deps: Pick<UsageDeps, "billingEntities" | "clock" | "copies" | "usage">,
  organizationId: string,
  externalSubscriptionIds: readonly string[],
  customerIds: readonly string[] = [],
  onlyCustomerIds: readonly string[] = [],
): Promise<CustomerOngoingUsage[]> {
  const keys = await Promise.all(
    [...new Set(externalSubscriptionIds)].map((id) => deps.copies.usageKey(organizationId, id)),
  );
  const customers = new Map<string, string>();
  for (const key of keys) if (key) customers.set(key.subscription.svc_customer_id ?? "", key.external_customer_id);
  for (const id of new Set(customerIds)) {
    const copy = await deps.copies.customer(id);
    if (copy && copy.organization_id === organizationId) customers.set(id, copy.customer.external_id);
  }
  customers.delete("");
  if (onlyCustomerIds.length) {
    const only = new Set(onlyCustomerIds);
    for (const id of [...customers.keys()]) if (!only.has(id)) customers.delete(id);
  }
  return Promise.all(
    [...customers].map(async ([customerId, externalCustomerId]) => {
      const subscriptions = await deps.copies.activeOfCustomer(organizationId, customerId);
      const views = [];
      for (const s of subscriptions)
        views.push(await getCurrentUsage(deps, organizationId, externalCustomerId, s.subscription.external_id));
      const currency = views.find((view) => view.currency)?.currency ?? "";
      return {
        customer_id: customerId,
        usage_cents: sumCents(
          views.map((view) => view.total_amount_cents),
          "ongoing usage",
        ),
        currency,
      };
    }),
  );
}
