import type { ChargeUsageRpc, UsageMessages } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { priceChargesPeriods, type ChargeUsageDeps } from "../use-cases/charge-usage/price-charges-periods";
import { chargeFeeMessage, chargesPeriodQuery } from "./charge-usage-messages";

/**
 * billing.usage.v1.ChargeUsageService: many subscriptions' charges periods priced in one call.
 * `consistent` first waits until every event acknowledged before the call is stored.
 */
export function chargeUsageHandlers(
  deps: ChargeUsageDeps & { storedThroughNow(): Promise<void>; storedThroughSeq?(): Promise<number> },
): Handlers<ChargeUsageRpc> {
  return {
    ChargeUsage: async (req) => {
      // consistent: the ingest sequence the read is complete through goes into the fees' snapshots (audits tell late events by it)
      let readThroughSeq: number | undefined;
      if (req.consistent) {
        if (deps.storedThroughSeq) readThroughSeq = await deps.storedThroughSeq();
        else await deps.storedThroughNow();
      }
      const priced = await priceChargesPeriods(
        deps,
        req.periods.map((p: UsageMessages.ChargesPeriod__Output) => chargesPeriodQuery(p)),
      );
      return {
        periods: req.periods.map((p, i) => ({
          subscription_id: p.subscription_id,
          found: priced[i]!.found,
          fees: priced[i]!.fees.map((f) => chargeFeeMessage(f, readThroughSeq)),
        })),
      };
    },
  };
}
