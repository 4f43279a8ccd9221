import { Rpc, type ChargeUsageRpc, type UsageMessages } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";

/** One subscription's charges period to price. */
export interface ChargesPeriodAsk {
  organizationId: string;
  subscriptionId: string;
  externalSubscriptionId: string;
  from: Date;
  to: Date;
  periodDays: number;
  billedDays?: number;
  /** with the pay-in-advance charges of recurring metrics (their carried-over units, billed for the period that starts) */
  includePayInAdvance?: boolean;
}

/** The usage service's priced usage, many subscriptions' charges periods per call (never one per charge). */
export interface UsagePeer {
  /** `consistent`: wait until every event acknowledged before the call is stored (invoices); else what is stored now. */
  chargeUsage(periods: ChargesPeriodAsk[], consistent: boolean): Promise<UsageMessages.PeriodUsage__Output[]>;
  close(): void;
}

export function grpcUsage(address: string, deadlineMs = 60_000): UsagePeer {
  const client = new RpcClient<ChargeUsageRpc>(Rpc.chargeUsage, address, deadlineMs);
  return {
    async chargeUsage(periods, consistent) {
      if (periods.length === 0) return [];
      const res = await client.call("ChargeUsage", {
        consistent,
        periods: periods.map((p) => ({
          organization_id: p.organizationId,
          subscription_id: p.subscriptionId,
          external_subscription_id: p.externalSubscriptionId,
          from: p.from.toISOString(),
          to: p.to.toISOString(),
          period_days: p.periodDays,
          ...(p.billedDays ? { billed_days: p.billedDays } : {}),
          ...(p.includePayInAdvance ? { include_pay_in_advance: true } : {}),
        })),
      });
      return res.periods;
    },
    close: () => client.close(),
  };
}
