import { aggregate } from "./aggregations/factory";
import type { BillableMetric, UsageEvent } from "./aggregations/types";
import { type HighWaterMark, highWaterStep } from "./aggregations/high-water-mark";
import { eventTime, numericValue } from "./aggregations/values";
import { type ChargeDefinition, compiledChargeFor } from "./charge-fee";
import { type ChargePeriod, aggregationOptionsFor, eventsInPeriod, preciseTotalAmountCents } from "./charge-fees";
import { applyChargeModel } from "./charge-models/factory";
import type { AmountDetails } from "./charge-models/types";
import { currencyInfo } from "./currency";
import type { Decimal } from "./decimal";
import { deltaAmountDetails, displayedUnits, inAdvanceAmountFields, markFields } from "./pay-in-advance-details";
import { proratedPayInAdvanceFee } from "./pay-in-advance-prorated";

export type { HighWaterMark };

export interface PayInAdvanceInput {
  /** The charge (or matched filter) definition: model, properties, prorated. */
  charge: ChargeDefinition;
  metric: BillableMetric;
  /** The event being billed. */
  event: UsageEvent;
  /** Events of the current charges period in the same bucket (filter, group); later ones are ignored. */
  periodEvents: readonly UsageEvent[];
  /** The cache before this event; null for the first event of the period. */
  highWaterMark?: HighWaterMark | null;
  currency: string;
  premium?: boolean;
  /** false for an estimate: the event is not stored, so not among periodEvents. Default true. */
  persisted?: boolean;
  /**
   * The current charges period. Required for a prorated charge (the days left to its end);
   * a dynamic charge counts only the amounts of events inside it (billing-rules §1.7).
   */
  period?: ChargePeriod;
}

export interface PayInAdvanceFee {
  units: string;
  events_count: 1;
  amount_cents: number;
  precise_amount_cents: string;
  unit_amount_cents: number;
  precise_unit_amount: string;
  amount_details: AmountDetails;
  /** The event's contribution above the period high-water mark. */
  contribution: string;
  /** The cache to store after this event. */
  high_water_mark: { current: string; max: string };
}

/**
 * The fee of one pay-in-advance event: model(total with the event) − model(total without it),
 * where the event contributes only what raises the period's high-water mark (so negative events
 * and re-added units are free). Metric rounding is not applied. A prorated charge is priced by
 * `proratedPayInAdvanceFee` (the contribution for the days left in the period).
 */
export function payInAdvanceFee(input: PayInAdvanceInput): PayInAdvanceFee {
  if (input.charge.prorated === true) return proratedPayInAdvanceFee(input);
  const persisted = input.persisted !== false;
  const at = eventTime(input.event);
  const upTo = input.periodEvents.filter((e) => e !== input.event && eventTime(e) <= at);
  const withEvent = [...upTo, input.event];
  const options = {
    ...aggregationOptionsFor(input.charge, undefined, input.premium === true),
    applyRounding: false,
    prorated: false,
  };
  // Percentage free units: both calls reuse the running total computed with the event.
  const full = aggregate(input.metric, withEvent, { ...options, withEventValues: true });
  const stored = persisted ? full : aggregate(input.metric, upTo, options);
  const mark = highWaterStep(input.metric, input.event, upTo, input.highWaterMark);
  const eventCounted =
    input.metric.aggregation_type === "count_agg" || numericValue(input.event, input.metric.field_name) !== null;
  const valuesBefore = eventCounted ? full.eventValues?.slice(0, -1) : full.eventValues;

  const charge = compiledChargeFor(input.charge);
  const { exponent, subunit } = currencyInfo(input.currency);
  const dynamic = input.charge.charge_model === "dynamic";
  const price = (units: Decimal, eventsCount: number, events: readonly UsageEvent[], excludeEvent: boolean) =>
    applyChargeModel(charge, {
      units,
      eventsCount,
      runningTotal: full.runningTotal,
      eventValues: events === upTo ? valuesBefore : full.eventValues,
      preciseTotalAmountCents: dynamic ? preciseTotalAmountCents(eventsInPeriod(events, input.period)) : undefined,
      subunit,
      excludeEvent,
      premium: input.premium,
    });
  // Stored event: model(total) − model(total − contribution); estimate: model(total + contribution) − model(total).
  const afterTotal = persisted ? stored.units : stored.units.plus(mark.contribution);
  const beforeTotal = persisted ? stored.units.minus(mark.contribution) : stored.units;
  const afterCount = persisted ? stored.eventsCount : stored.eventsCount + 1;
  const afterResult = price(afterTotal, afterCount, withEvent, false);
  const beforeResult = price(beforeTotal, afterCount - 1, upTo, persisted);
  const amount = afterResult.amount.minus(beforeResult.amount);

  return {
    ...inAdvanceAmountFields(amount, displayedUnits(mark), exponent),
    amount_details: persisted
      ? deltaAmountDetails(input.charge.charge_model, afterResult.amountDetails, beforeResult.amountDetails)
      : {},
    ...markFields(mark),
  };
}
