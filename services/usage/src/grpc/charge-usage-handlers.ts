import type { ChargeUsageRpc, UsageMessages } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Handlers } from "@billing/grpc";
import { priceChargesPeriod, type ChargeUsageDeps, type PricedChargeFee } from "../use-cases/charge-usage/price-charges-periods";

const instant = (value: string, field: string) => {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) throw AppError.validation({ [field]: ["invalid_date"] });
  return at;
};

const feeMessage = (f: PricedChargeFee): UsageMessages.ChargeFee => ({
  charge_id: f.charge.svc_id,
  billable_metric_id: f.charge.svc_billable_metric_id,
  billable_metric_code: f.charge.billable_metric_code,
  charge_model: f.charge.charge_model,
  ...(f.chargeFilterIndex !== null ? { charge_filter_index: f.chargeFilterIndex } : {}),
  grouped_by_json: JSON.stringify(f.groupedBy),
  true_up: f.trueUp,
  units: f.units,
  total_aggregated_units: f.totalAggregatedUnits,
  events_count: f.eventsCount,
  amount_cents: f.amountCents,
  precise_amount_cents: f.preciseAmountCents,
  unit_amount_cents: f.unitAmountCents,
  precise_unit_amount: f.preciseUnitAmount,
  amount_details_json: JSON.stringify(f.amountDetails ?? {}),
  properties_json: JSON.stringify(f.properties ?? {}),
  persistable: f.persistable,
  pay_in_advance: f.charge.pay_in_advance,
  invoiceable: f.charge.invoiceable,
  billable_metric_name: f.metric.name,
  aggregation_type: f.metric.aggregation_type,
});

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
          const priced = await priceChargesPeriod(deps, {
            organizationId: p.organization_id,
            subscriptionId: p.subscription_id,
            externalSubscriptionId: p.external_subscription_id,
            from: instant(p.from, "from"),
            to: instant(p.to, "to"),
            periodDays: p.period_days || 1,
            billedDays: p.billed_days ?? undefined,
            includePayInAdvance: p.include_pay_in_advance,
          });
          return { subscription_id: p.subscription_id, found: priced.found, fees: priced.fees.map(feeMessage) };
        }),
      );
      return { periods };
    },
  };
}
