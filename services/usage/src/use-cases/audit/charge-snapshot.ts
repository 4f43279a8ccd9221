import type { BillableMetric, ChargeModelName, MetricFilter, UsageCharge } from "@billing/pricing";
import type { ChargeCopy, MetricCopy } from "../../domain/read-copies";

/** What a snapshot keeps of a charge: what the pricing library prices it with. */
export type SnapshotCharge = Pick<
  ChargeCopy,
  | "svc_id"
  | "billable_metric_code"
  | "charge_model"
  | "pay_in_advance"
  | "prorated"
  | "min_amount_cents"
  | "properties"
  | "filters"
>;

/** What a snapshot keeps of a billable metric: what the pricing library aggregates with. */
export type SnapshotMetric = Pick<
  MetricCopy,
  | "svc_id"
  | "code"
  | "name"
  | "aggregation_type"
  | "field_name"
  | "recurring"
  | "rounding_function"
  | "rounding_precision"
  | "weighted_interval"
  | "expression"
  | "filters"
>;

/**
 * What a charge fee was priced from, kept on the invoiced fee (ChargeFee.charge_snapshot, the
 * ChargeSnapshot message) so that an audit re-derives it later whatever the catalog became since:
 * the charge with ALL its filters (the default bucket is "the events matching none of them"), the
 * metric (aggregation, field, its own filters, recurring), the charges period, the days billed and
 * the customer's time zone. Pure data; `v` versions its shape.
 */
export interface ChargeSnapshot {
  v: 1;
  charge: SnapshotCharge;
  metric: SnapshotMetric;
  currency: string;
  /** the charges period, both ends inclusive as billed */
  from: string;
  to: string;
  /** where the events were read from: the period's start, or a recurring metric's subscription start */
  events_from: string;
  period_days: number;
  billed_days: number | null;
  time_zone: string;
  /**
   * a consistent read (an invoice's): the ingest stream sequence storage was complete through when
   * the events were read. An event of a later ingest message was acknowledged after the read: late.
   */
  read_through_seq?: number;
}

/** A snapshot as an audit is asked to price it: without `metric`, a plan simulation's (the current metric of its code is filled in). */
export type AskedChargeSnapshot = Omit<ChargeSnapshot, "metric"> & { metric?: SnapshotMetric };

export function chargeSnapshot(input: {
  charge: ChargeCopy;
  metric: MetricCopy;
  currency: string;
  eventsFrom: Date;
  timeZone: string;
  query: { from: Date; to: Date; periodDays: number; billedDays?: number };
}): ChargeSnapshot {
  const { charge: c, metric: m, currency, eventsFrom, timeZone, query } = input;
  return {
    v: 1,
    charge: {
      svc_id: c.svc_id,
      billable_metric_code: c.billable_metric_code,
      charge_model: c.charge_model,
      pay_in_advance: c.pay_in_advance,
      prorated: c.prorated,
      min_amount_cents: c.min_amount_cents,
      properties: c.properties,
      filters: c.filters,
    },
    metric: {
      svc_id: m.svc_id,
      code: m.code,
      name: m.name,
      aggregation_type: m.aggregation_type,
      field_name: m.field_name,
      recurring: m.recurring,
      rounding_function: m.rounding_function,
      rounding_precision: m.rounding_precision,
      weighted_interval: m.weighted_interval,
      expression: m.expression,
      filters: m.filters,
    },
    currency,
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    events_from: eventsFrom.toISOString(),
    period_days: query.periodDays,
    billed_days: query.billedDays ?? null,
    time_zone: timeZone,
  };
}

/** A charge copy as the pricing library prices it (ChargeUsage's charges and the snapshots' alike). */
export const pricingCharge = (charge: SnapshotCharge): UsageCharge => ({
  charge_model: charge.charge_model as ChargeModelName,
  properties: charge.properties,
  prorated: charge.prorated,
  pay_in_advance: charge.pay_in_advance,
  min_amount_cents: charge.min_amount_cents,
  filters: charge.filters.map((f) => ({ properties: f.properties, values: f.values })),
});

/** The snapshot's charge as the pricing library prices it (what ChargeUsage prices). */
export const snapshotCharge = ({ charge }: ChargeSnapshot): UsageCharge => pricingCharge(charge);

/** The snapshot's metric as the pricing library reads it (its aggregation names are the catalog's). */
export const snapshotMetric = ({ metric }: ChargeSnapshot) =>
  metric as unknown as BillableMetric & { filters: MetricFilter[] };
