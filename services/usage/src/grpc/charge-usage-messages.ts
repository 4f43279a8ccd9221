import {
  amountDetailsToProto,
  chargePropertiesToProto,
  groupedByToProto,
  type UsageMessages,
} from "@billing/contracts";
import type { ChargesPeriodQuery, PricedChargeFee } from "../use-cases/charge-usage/price-charges-periods";
import { chargeSnapshotMessage } from "./charge-snapshot-messages";
import { instantField } from "./instant-field";

/** Proto ⇄ domain for ChargeUsage. */

/** A ChargesPeriod message → the period to price. */
export const chargesPeriodQuery = (p: UsageMessages.ChargesPeriod__Output): ChargesPeriodQuery => ({
  organizationId: p.organization_id,
  subscriptionId: p.subscription_id,
  externalSubscriptionId: p.external_subscription_id,
  from: instantField(p.from, "from", "invalid_date"),
  to: instantField(p.to, "to", "invalid_date"),
  periodDays: p.period_days || 1,
  billedDays: p.billed_days ?? undefined,
  includePayInAdvance: p.include_pay_in_advance,
});

/** A priced fee → the ChargeFee message (`readThroughSeq`: a consistent read's ingest sequence, kept in its snapshot). */
export const chargeFeeMessage = (f: PricedChargeFee, readThroughSeq?: number): UsageMessages.ChargeFee => ({
  charge_id: f.charge.svc_id,
  billable_metric_id: f.charge.svc_billable_metric_id,
  billable_metric_code: f.charge.billable_metric_code,
  charge_model: f.charge.charge_model,
  ...(f.chargeFilterIndex !== null ? { charge_filter_index: f.chargeFilterIndex } : {}),
  grouped_by: groupedByToProto(f.groupedBy),
  true_up: f.trueUp,
  units: f.units,
  total_aggregated_units: f.totalAggregatedUnits,
  events_count: f.eventsCount,
  amount_cents: f.amountCents,
  precise_amount_cents: f.preciseAmountCents,
  unit_amount_cents: f.unitAmountCents,
  precise_unit_amount: f.preciseUnitAmount,
  amount_details: amountDetailsToProto(f.amountDetails),
  properties: chargePropertiesToProto(f.properties),
  persistable: f.persistable,
  pay_in_advance: f.charge.pay_in_advance,
  invoiceable: f.charge.invoiceable,
  billable_metric_name: f.metric.name,
  aggregation_type: f.metric.aggregation_type,
  charge_snapshot: chargeSnapshotMessage(f.snapshot, readThroughSeq),
});
