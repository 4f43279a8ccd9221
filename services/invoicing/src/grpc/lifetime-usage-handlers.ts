import type { LifetimeUsageRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import type { ProgressiveDeps } from "../use-cases/progressive/deps";
import { getLifetimeUsage, updateLifetimeUsage } from "../use-cases/progressive/lifetime-usage";
import { lifetimeUsageMessage } from "./lifetime-usage-messages";

/** billing.invoicing.v1.LifetimeUsageService: progressive billing's lifetime usage (always within the caller's organization). */
export function lifetimeUsageHandlers(
  deps: Pick<ProgressiveDeps, "clock" | "copies" | "progressive" | "usage">,
): Handlers<LifetimeUsageRpc> {
  return {
    GetLifetimeUsage: async (req) => ({
      lifetime_usage: lifetimeUsageMessage(
        await getLifetimeUsage(deps, req.organization_id, req.external_subscription_id),
      ),
    }),
    UpdateLifetimeUsage: async (req) => ({
      lifetime_usage: lifetimeUsageMessage(
        await updateLifetimeUsage(
          deps,
          req.organization_id,
          req.external_subscription_id,
          Number(req.external_historical_usage_amount_cents),
        ),
      ),
    }),
  };
}
