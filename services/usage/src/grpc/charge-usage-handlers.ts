import type { ChargeUsageRpc, UsageMessages } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { priceChargesPeriod, type ChargeUsageDeps } from "../use-cases/charge-usage/price-charges-periods";
import { chargeFeeMessage, chargesPeriodQuery } from "./charge-usage-messages";

/**
 * billing.usage.v1.ChargeUsageService: many subscriptions' charges periods priced in one call.
 * `consistent` first waits until every event acknowledged before the call is stored.
 */
export function chargeUsageHandlers(deps: ChargeUsageDeps & { storedThroughNow(): Promise<void> }): Handlers<ChargeUsageRpc> {
  return {
    ChargeUsage: async (req) => {
      if (req.consistent) await deps.storedThroughNow();
      const periods = await Promise.all(
        req.periods.map(async (p: UsageMessages.ChargesPeriod__Output) => {
          const priced = await priceChargesPeriod(deps, chargesPeriodQuery(p));
          return { subscription_id: p.subscription_id, found: priced.found, fees: priced.fees.map(chargeFeeMessage) };
        }),
      );
      return { periods };
    },
  };
}
