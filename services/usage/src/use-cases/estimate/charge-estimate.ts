import {
  estimateEventFee,
  instantMs,
  type BillableMetric,
  type ChargePeriod,
  type ChargeModelName,
  type EstimatedFee,
  type MetricFilter,
  type TaxInput,
  type UsageEvent,
} from "@billing/pricing";
import type { ChargeCopy, ChargeFilterCopy, MetricCopy } from "../../domain/read-copies";
import { bucketOf, storedBucket } from "./charge-buckets";

export interface ChargeEstimateInput {
  charge: ChargeCopy;
  metric: MetricCopy;
  /** The estimated event (not stored), timestamped now. */
  event: UsageEvent;
  /** Stored events of the metric over the charges period, in time order (those after the event are ignored). */
  stored: readonly UsageEvent[];
  currency: string;
  taxes: readonly TaxInput[];
  /** The charges period with its length (a prorated charge is priced for the days left in it). */
  period?: ChargePeriod;
}

export interface ChargeEstimate {
  fee: EstimatedFee;
  filter: ChargeFilterCopy | null;
}

/** The metric copy as the pricing library reads it (its aggregation names are the catalog's). */
const pricingMetric = (m: MetricCopy) => m as unknown as BillableMetric & { filters: MetricFilter[] };

/**
 * The fee the event would create on one pay-in-advance charge: its bucket (the filter it falls
 * in, its pricing group), the high-water mark that bucket's stored events left, then the pricing
 * library's estimate (model(total + contribution) − model(total), taxes). The library is handed
 * the bucket already chosen (its properties, no filters), so it does not match filters again.
 * A prorated charge is priced for the days left in the period (billing-rules §1.11), as its fee will be.
 */
export function estimateCharge(input: ChargeEstimateInput): ChargeEstimate {
  const metric = pricingMetric(input.metric);
  const { index, properties, key } = bucketOf(input.charge, metric, input.event);
  const bucket = storedBucket(input.stored, input.charge, metric, key, instantMs(input.event.timestamp));
  const fee = estimateEventFee({
    charge: {
      charge_model: input.charge.charge_model as ChargeModelName,
      properties,
      prorated: input.charge.prorated && input.period !== undefined,
    },
    metric,
    event: input.event,
    periodEvents: bucket.events,
    highWaterMark: bucket.mark,
    currency: input.currency,
    taxes: input.taxes,
    period: input.period,
    // Every feature is available on this platform (percentage per-transaction min/max included).
    premium: true,
  });
  return { fee: { ...fee, charge_filter_index: index }, filter: index === null ? null : input.charge.filters[index]! };
}
