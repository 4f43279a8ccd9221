import type { AggregationType, RoundingFunction } from "@billing/codes";
import type { Decimal } from "../decimal";

export type { AggregationType, RoundingFunction } from "@billing/codes";

/** The billable-metric fields that drive aggregation (spec: Billable metric). */
export interface BillableMetric {
  aggregation_type: AggregationType;
  field_name?: string | null;
  recurring?: boolean | null;
  rounding_function?: RoundingFunction | null;
  rounding_precision?: number | null;
  weighted_interval?: "seconds" | null;
  expression?: string | null;
}

/** A usage event as stored. `timestamp` as a Date, an ISO 8601 string or epoch milliseconds. */
export interface UsageEvent {
  transaction_id?: string;
  code?: string;
  timestamp: Date | string | number;
  properties?: Record<string, unknown> | null;
  precise_total_amount_cents?: string | number | null;
}

/** The result of aggregating one bucket of events (a filter, a group). Feeds a charge model. */
export interface AggregationResult {
  /** Units billed (after metric rounding; prorated units for a prorated charge). */
  units: Decimal;
  /** events_count of the fee. */
  eventsCount: number;
  /** total_aggregated_units when it differs from units (weighted sum: final level or variation). */
  totalAggregatedUnits?: Decimal | undefined;
  /** Non-prorated unit count of a prorated aggregation. */
  fullUnitsNumber?: Decimal | undefined;
  /** Cumulative values for percentage free units. */
  runningTotal?: Decimal[] | undefined;
  /** Per-event values in timestamp order (when requested). */
  eventValues?: Decimal[] | undefined;
  /** Per-event prorated values aligned with eventValues (prorated aggregations). */
  proratedEventValues?: Decimal[] | undefined;
  /** Σ precise_total_amount_cents of the aggregated events (dynamic charges). */
  preciseTotalAmountCents?: Decimal | undefined;
  /** Values of the pricing group keys of this bucket (grouped_by). */
  groupedBy?: Record<string, string | null> | undefined;
}
