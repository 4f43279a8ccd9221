import type { InvoicingRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { UsageDeps } from "../use-cases/usage/deps";
import { getCurrentUsage } from "../use-cases/usage/get-current-usage";
import { getPastUsage } from "../use-cases/usage/get-past-usage";
import { usageMessage } from "./usage-messages";

/** billing.invoicing.v1.InvoiceService, the customers' usage: proto in, use case, proto out. */
export function usageHandlers(deps: UsageDeps): Pick<Handlers<InvoicingRpc>, "GetCurrentUsage" | "GetPastUsage"> {
  return {
    GetCurrentUsage: async (req) => {
      return {
        customer_usage: usageMessage(
          await getCurrentUsage(deps, req.organization_id, req.external_customer_id, req.external_subscription_id),
        ),
      };
    },
    GetPastUsage: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await getPastUsage(
        deps,
        req.organization_id,
        {
          externalCustomerId: req.external_customer_id,
          externalSubscriptionId: req.external_subscription_id,
          billableMetricCode: req.billable_metric_code || undefined,
          periodsCount: req.periods_count ?? undefined,
        },
        page,
      );
      return { usage_periods: items.map(usageMessage), meta: pageMeta(total, page) };
    },
  };
}
