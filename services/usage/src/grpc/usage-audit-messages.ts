import { AppError } from "@billing/errors";
import { groupedByToProto, usageEventToProto, type UsageMessages } from "@billing/contracts";
import type { MetricCopy } from "../domain/read-copies";
import type { ChargeSnapshot } from "../use-cases/audit/charge-snapshot";
import { chargeSnapshotOf } from "./charge-snapshot-messages";
import type { AdvanceAsk, RederivedAdvanceCharge } from "../use-cases/audit/rederive-advance-fees";
import type { RederiveInput, RederivedCharge } from "../use-cases/audit/rederive-charges";
import { instantField } from "./instant-field";

/** Proto ⇄ domain for RederiveCharges. */

const MAX_LATE_EVENTS = 1000;

/** `metricOf`: the current metric of a code, for snapshots that carry none (plan simulations). */
export function rederiveInput(
  req: UsageMessages.RederiveChargesRequest__Output,
  metricOf: (code: string) => MetricCopy | null,
): RederiveInput {
  const snapshots = req.snapshots.map((message): ChargeSnapshot => {
    const s = chargeSnapshotOf(message);
    if (!s) throw AppError.validation({ snapshots: ["value_is_invalid"] });
    if (s.metric) return { ...s, metric: s.metric };
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
    grouped_by: groupedByToProto(f.groupedBy),
    true_up: f.trueUp,
    units: f.units,
    total_aggregated_units: f.totalAggregatedUnits,
    events_count: f.eventsCount,
    amount_cents: f.amountCents,
    precise_amount_cents: f.preciseAmountCents,
    persistable: f.persistable,
  })),
  events_read: c.eventsRead,
  late_events_count: c.lateEventsCount,
  late_events: c.lateEvents.map((e) => usageEventToProto(e.view())),
});

/** Proto ⇄ domain for RederiveAdvanceFees. */
export function rederiveAdvanceInput(req: UsageMessages.RederiveAdvanceFeesRequest__Output): {
  organizationId: string;
  externalSubscriptionId: string;
  asks: AdvanceAsk[];
} {
  const asks = req.asks.map((a): AdvanceAsk => {
    if (!a.subscription_id || !a.charge_id) throw AppError.validation({ asks: ["value_is_invalid"] });
    return {
      subscriptionId: a.subscription_id,
      chargeId: a.charge_id,
      from: instantField(a.from, "from", "invalid_date"),
      to: instantField(a.to, "to", "invalid_date"),
      feeIds: a.fee_ids,
      chargeVersion: a.charge_version || null,
    };
  });
  return { organizationId: req.organization_id, externalSubscriptionId: req.external_subscription_id, asks };
}

export const rederivedAdvanceChargeMessage = (c: RederivedAdvanceCharge): UsageMessages.RederivedAdvanceCharge => ({
  error: c.error ?? "",
  billable_metric_code: c.billableMetricCode,
  events_read: c.eventsRead,
  fees: c.fees.map((f) => ({
    fee_id: f.feeId,
    event_transaction_id: f.eventTransactionId,
    event_timestamp: f.eventTimestamp.toISOString(),
    ...(f.chargeFilterIndex !== null ? { charge_filter_index: f.chargeFilterIndex } : {}),
    grouped_by: groupedByToProto(f.groupedBy),
    units: f.units,
    amount_cents: f.amountCents,
    precise_amount_cents: f.preciseAmountCents,
    replay_position: f.replayPosition,
  })),
});
