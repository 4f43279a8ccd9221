import {
  chargeFilterFromProto,
  chargeFilterToProto,
  chargePropertiesFromProto,
  chargePropertiesToProto,
  type UsageMessages,
} from "@billing/contracts";
import type { AskedChargeSnapshot, ChargeSnapshot, SnapshotMetric } from "../use-cases/audit/charge-snapshot";

/** Proto ⇄ domain for the ChargeSnapshot message (ChargeUsage answers it, RederiveCharges is given it back). */

/** A snapshot → the message (`readThroughSeq`: a consistent read's ingest sequence). */
export function chargeSnapshotMessage(s: ChargeSnapshot, readThroughSeq?: number): UsageMessages.ChargeSnapshot {
  const { charge: c, metric: m } = s;
  return {
    v: s.v,
    charge: {
      svc_id: c.svc_id,
      billable_metric_code: c.billable_metric_code,
      charge_model: c.charge_model,
      pay_in_advance: c.pay_in_advance,
      prorated: c.prorated,
      min_amount_cents: c.min_amount_cents,
      properties: chargePropertiesToProto(c.properties),
      filters: c.filters.map(chargeFilterToProto),
    },
    metric: {
      svc_id: m.svc_id,
      code: m.code,
      name: m.name,
      aggregation_type: m.aggregation_type,
      field_name: m.field_name ?? undefined,
      recurring: m.recurring,
      rounding_function: m.rounding_function ?? undefined,
      rounding_precision: m.rounding_precision ?? undefined,
      weighted_interval: m.weighted_interval ?? undefined,
      expression: m.expression ?? undefined,
      filters: m.filters.map((f) => ({ key: f.key, values: f.values })),
    },
    currency: s.currency,
    from: s.from,
    to: s.to,
    events_from: s.events_from,
    period_days: s.period_days,
    billed_days: s.billed_days ?? undefined,
    time_zone: s.time_zone,
    read_through_seq: readThroughSeq ?? s.read_through_seq,
  };
}

const metricOf = (m: UsageMessages.SnapshotMetric__Output): SnapshotMetric => ({
  svc_id: m.svc_id,
  code: m.code,
  name: m.name,
  aggregation_type: m.aggregation_type,
  field_name: m.field_name ?? null,
  recurring: m.recurring,
  rounding_function: m.rounding_function ?? null,
  rounding_precision: m.rounding_precision ?? null,
  weighted_interval: m.weighted_interval ?? null,
  expression: m.expression ?? null,
  filters: m.filters.map((f) => ({ key: f.key, values: [...f.values] })),
});

/**
 * The message → a snapshot to price from; null when it cannot be priced (another shape version,
 * no charge, an instant that is none, no days): a malformed one is refused, never half-priced.
 * Without `metric` (a plan simulation prices a plan's charges as they are now) the caller fills in
 * the current metric of the charge's code.
 */
export function chargeSnapshotOf(m: UsageMessages.ChargeSnapshot__Output): AskedChargeSnapshot | null {
  const instant = (v: string) => v !== "" && !Number.isNaN(Date.parse(v));
  const c = m.charge;
  if (m.v !== 1 || !c || !c.billable_metric_code || !m.currency) return null;
  if (m.metric && !m.metric.code) return null;
  if (!instant(m.from) || !instant(m.to) || !instant(m.events_from) || !(m.period_days > 0)) return null;
  return {
    v: 1,
    charge: {
      svc_id: c.svc_id,
      billable_metric_code: c.billable_metric_code,
      charge_model: c.charge_model,
      pay_in_advance: c.pay_in_advance,
      prorated: c.prorated,
      min_amount_cents: c.min_amount_cents,
      properties: chargePropertiesFromProto(c.properties),
      filters: c.filters.map(chargeFilterFromProto),
    },
    ...(m.metric ? { metric: metricOf(m.metric) } : {}),
    currency: m.currency,
    from: m.from,
    to: m.to,
    events_from: m.events_from,
    period_days: m.period_days,
    billed_days: m.billed_days ?? null,
    time_zone: m.time_zone,
    ...(m.read_through_seq !== undefined ? { read_through_seq: m.read_through_seq } : {}),
  };
}
