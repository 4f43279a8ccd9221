import type { ChargeUsageRpc, UsageMessages } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { priceChargesPeriods, type ChargeUsageDeps } from "../use-cases/charge-usage/price-charges-periods";
import { chargeFeeMessage, chargesPeriodQuery } from "./charge-usage-messages";

/**
 * billing.usage.v1.ChargeUsageService: many subscriptions' charges periods priced in one call.
 * `consistent` first waits until every event acknowledged before the call is stored.
 */
export function chargeUsageHandlers(deps: ChargeUsageDeps & { storedThroughNow(): Promise<void> }): Handlers<ChargeUsageRpc> {
  return {
    ChargeUsage: async (req) => {
      if (req.consistent) await deps.storedThroughNow();
      const priced = await priceChargesPeriods(deps, req.periods.map((p: UsageMessages.ChargesPeriod__Output) => chargesPeriodQuery(p)));
      return {
        periods: req.periods.map((p, i) => ({ subscription_id: p.subscription_id, found: priced[i]!.found, fees: priced[i]!.fees.map(chargeFeeMessage) })),
      };
    },
  };
}
