import type { BillableMetric, ChargeModelName, MetricFilter, UsageCharge } from "@billing/pricing";
import type { ChargeCopy, MetricCopy } from "../../domain/read-copies";

/**
 * What a charge fee was priced from, kept on the invoiced fee (ChargeFee.charge_snapshot_json) so
 * that an audit re-derives it later whatever the catalog became since: the charge with ALL its
 * filters (the default bucket is "the events matching none of them"), the metric (aggregation,
 * field, its own filters, recurring), the charges period, the days billed and the customer's time
 * zone. Pure data; `v` versions its shape.
 */
export interface ChargeSnapshot {
  v: 1;
  charge: ChargeCopy;
  metric: MetricCopy;
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

export function chargeSnapshot(input: {
  charge: ChargeCopy; metric: MetricCopy; currency: string; eventsFrom: Date; timeZone: string;
  query: { from: Date; to: Date; periodDays: number; billedDays?: number };
}): ChargeSnapshot {
  const { charge, metric, currency, eventsFrom, timeZone, query } = input;
  return {
    v: 1, charge, metric, currency, from: query.from.toISOString(), to: query.to.toISOString(), events_from: eventsFrom.toISOString(),
    period_days: query.periodDays, billed_days: query.billedDays ?? null, time_zone: timeZone,
  };
}

/**
 * A snapshot as stored → checked enough to price from (a malformed one is refused, never
 * half-priced). Without `metric` (a plan simulation prices a plan's charges as they are now), the
 * metric is the one of the charge's `billable_metric_code`, which the caller fills in.
 */
export function parseChargeSnapshot(json: string): (Omit<ChargeSnapshot, "metric"> & { metric?: MetricCopy }) | null {
  let s: Partial<ChargeSnapshot>;
  try {
    s = JSON.parse(json) as Partial<ChargeSnapshot>;
  } catch {
    return null;
  }
  const instant = (v: unknown) => typeof v === "string" && !Number.isNaN(Date.parse(v));
  if (!s || s.v !== 1 || !s.charge || typeof s.charge.billable_metric_code !== "string" || !Array.isArray(s.charge.filters) || typeof s.currency !== "string") return null;
  if (s.metric !== undefined && (!s.metric || typeof s.metric.code !== "string")) return null;
  if (s.read_through_seq !== undefined && !Number.isSafeInteger(s.read_through_seq)) return null;
  if (!instant(s.from) || !instant(s.to) || !instant(s.events_from) || !(Number(s.period_days) > 0)) return null;
  return s as Omit<ChargeSnapshot, "metric"> & { metric?: MetricCopy };
}

/** A charge copy as the pricing library prices it (ChargeUsage's charges and the snapshots' alike). */
export const pricingCharge = (charge: ChargeCopy): UsageCharge => ({
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
export const snapshotMetric = ({ metric }: ChargeSnapshot) => metric as unknown as BillableMetric & { filters: MetricFilter[] };
