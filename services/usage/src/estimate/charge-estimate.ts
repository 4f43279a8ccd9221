import {
  estimateEventFee,
  payInAdvanceFilterIndex,
  pricingGroupKeys,
  type BillableMetric,
  type ChargeFilter,
  type ChargeModelName,
  type EstimatedFee,
  type MetricFilter,
  type TaxInput,
  type UsageEvent,
} from "@billing/pricing";
import type { ChargeCopy, ChargeFilterCopy, MetricCopy } from "../domain/read-copies";
import { highWaterMark } from "./high-water-mark";

export interface ChargeEstimateInput {
  charge: ChargeCopy;
  metric: MetricCopy;
  /** The estimated event (not stored), timestamped now. */
  event: UsageEvent;
  /** Stored events of the metric over the charges period, in time order. */
  stored: readonly UsageEvent[];
  currency: string;
  taxes: readonly TaxInput[];
}

export interface ChargeEstimate {
  fee: EstimatedFee;
  filter: ChargeFilterCopy | null;
}

/** The metric copy as the pricing library reads it (its aggregation names are the catalog's). */
const pricingMetric = (m: MetricCopy) => m as unknown as BillableMetric & { filters: MetricFilter[] };

const groupValue = (e: UsageEvent, key: string) => (e.properties?.[key] == null ? null : String(e.properties[key]));

/**
 * The fee the event would create on one pay-in-advance charge: its bucket (the filter it falls
 * in, its pricing group), the high-water mark that bucket's stored events left, then the pricing
 * library's estimate (model(total + contribution) − model(total), taxes).
 * Prorated in-advance charges are priced unprorated (the pricing library has no prorated in-advance model).
 */
export function estimateCharge(input: ChargeEstimateInput): ChargeEstimate {
  const metric = pricingMetric(input.metric);
  const filters = input.charge.filters as ChargeFilter[];
  const index = payInAdvanceFilterIndex(input.event, filters, metric.filters);
  const properties = index === null ? input.charge.properties : (filters[index]!.properties ?? {});
  const keys = pricingGroupKeys(properties);
  const inBucket = (e: UsageEvent) =>
    payInAdvanceFilterIndex(e, filters, metric.filters) === index && keys.every((k) => groupValue(e, k) === groupValue(input.event, k));
  const bucket = filters.length === 0 && keys.length === 0 ? input.stored : input.stored.filter(inBucket);
  const fee = estimateEventFee({
    charge: { charge_model: input.charge.charge_model as ChargeModelName, properties: input.charge.properties, prorated: false, filters },
    metric,
    event: input.event,
    periodEvents: bucket,
    highWaterMark: highWaterMark(metric, bucket),
    currency: input.currency,
    taxes: input.taxes,
    // Every feature is available on this platform (percentage per-transaction min/max included).
    premium: true,
  });
  return { fee, filter: index === null ? null : input.charge.filters[index]! };
}
