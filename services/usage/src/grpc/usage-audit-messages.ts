import { AppError } from "@billing/errors";
import type { UsageMessages } from "@billing/contracts";
import type { MetricCopy } from "../domain/read-copies";
import { parseChargeSnapshot, type ChargeSnapshot } from "../use-cases/audit/charge-snapshot";
import type { RederiveInput, RederivedCharge } from "../use-cases/audit/rederive-charges";
import { instantField } from "./instant-field";

/** Proto ⇄ domain for RederiveCharges. */

const MAX_LATE_EVENTS = 1000;

/** `metricOf`: the current metric of a code, for snapshots that carry none (plan simulations). */
export function rederiveInput(req: UsageMessages.RederiveChargesRequest__Output, metricOf: (code: string) => MetricCopy | null): RederiveInput {
  const snapshots = req.snapshots_json.map((json): ChargeSnapshot => {
    const s = parseChargeSnapshot(json);
    if (!s) throw AppError.validation({ snapshots_json: ["value_is_invalid"] });
    if (s.metric) return s as ChargeSnapshot;
    const metric = metricOf(s.charge.billable_metric_code);
    if (!metric) throw AppError.notFound("billable_metric");
    return { ...s, metric };
  });
  return {
    organizationId: req.organization_id,
    externalSubscriptionId: req.external_subscription_id,
    snapshots,
    billedThrough: req.billed_through ? instantField(req.billed_through, "billed_through", "invalid_date") : null,
    lateLimit: Math.min(Math.max(req.late_events_limit || 20, 0), MAX_LATE_EVENTS),
  };
}

export const rederivedChargeMessage = (c: RederivedCharge): UsageMessages.RederivedCharge => ({
  fees: c.fees.map((f) => ({
    ...(f.chargeFilterIndex !== null ? { charge_filter_index: f.chargeFilterIndex } : {}),
    grouped_by_json: JSON.stringify(f.groupedBy), true_up: f.trueUp, units: f.units, total_aggregated_units: f.totalAggregatedUnits,
    events_count: f.eventsCount, amount_cents: f.amountCents, precise_amount_cents: f.preciseAmountCents, persistable: f.persistable,
  })),
  events_read: c.eventsRead,
  late_events_count: c.lateEventsCount,
  late_events_json: c.lateEvents.map((e) => JSON.stringify({
    svc_id: e.svc_id, transaction_id: e.transaction_id, external_subscription_id: e.external_subscription_id, code: e.code,
    timestamp: new Date(e.timestamp).toISOString(), properties: e.properties, created_at: new Date(e.created).toISOString(),
  })),
});
