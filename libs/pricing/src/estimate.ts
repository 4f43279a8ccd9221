import type { BillableMetric, UsageEvent } from "./aggregations/types";
import type { ChargeDefinition } from "./charge-fee";
import type { ChargePeriod } from "./charge-fees";
import { type ChargeFilter, type MetricFilter, payInAdvanceFilterIndex } from "./filters";
import { groupEvents, pricingGroupKeys } from "./grouping";
import { type FeeTaxes, computeFeeTaxes } from "./invoice/fee-taxes";
import type { TaxInput } from "./invoice/types";
import { type HighWaterMark, type PayInAdvanceFee, payInAdvanceFee } from "./pay-in-advance";

export interface EstimateInput {
  /** A pay-in-advance charge: model, properties, filters. */
  charge: ChargeDefinition & { filters?: ChargeFilter[] };
  metric: BillableMetric & { filters?: MetricFilter[] };
  /** The event to estimate, timestamped now; it is not stored. */
  event: UsageEvent;
  /** Stored events of the current charges period for this subscription and metric. */
  periodEvents: readonly UsageEvent[];
  /** Cached high-water mark of the bucket the event falls in, if any. */
  highWaterMark?: HighWaterMark | null;
  currency: string;
  taxes?: readonly TaxInput[];
  premium?: boolean;
  /** The current charges period: required for a prorated charge (see payInAdvanceFee). */
  period?: ChargePeriod;
}

export interface EstimatedFee extends PayInAdvanceFee, FeeTaxes {
  charge_filter_index: number | null;
  grouped_by: Record<string, string | null>;
  pay_in_advance: true;
}

/**
 * The fee one more event would create on a pay-in-advance charge (POST /events/estimate_fees):
 * the single matching filter (most keys), the event's group, the high-water mark, then taxes.
 */
export function estimateEventFee(input: EstimateInput): EstimatedFee {
  const filters = input.charge.filters ?? [];
  const filterIndex = payInAdvanceFilterIndex(input.event, filters, input.metric.filters);
  const properties = filterIndex === null ? input.charge.properties : (filters[filterIndex]!.properties ?? {});
  const definition: ChargeDefinition = { ...input.charge, properties };
  const keys = pricingGroupKeys(properties);
  const group = keys.length > 0 ? groupEvents([input.event], keys)[0]!.groupedBy : {};
  const sameBucket = (e: UsageEvent) =>
    (filterIndex === null
      ? payInAdvanceFilterIndex(e, filters, input.metric.filters) === null
      : payInAdvanceFilterIndex(e, filters, input.metric.filters) === filterIndex) &&
    keys.every((k) => (e.properties?.[k] == null ? null : String(e.properties[k])) === group[k]);
  const fee = payInAdvanceFee({
    charge: definition,
    metric: input.metric,
    event: input.event,
    periodEvents: input.periodEvents.filter(sameBucket),
    highWaterMark: input.highWaterMark,
    currency: input.currency,
    premium: input.premium,
    persisted: false,
    period: input.period,
  });
  const taxes = computeFeeTaxes({
    fee_type: "charge",
    amount_cents: fee.amount_cents,
    precise_amount_cents: fee.precise_amount_cents,
    taxes: input.taxes ?? [],
  });
  return { ...fee, ...taxes, charge_filter_index: filterIndex, grouped_by: group, pay_in_advance: true };
}
