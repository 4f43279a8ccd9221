import { aggregate } from "./aggregations/factory";
import type { BillableMetric, UsageEvent } from "./aggregations/types";
import { operationOf, uniqueKey, uniqueTimelines } from "./aggregations/unique-count";
import { eventTime, numericValue } from "./aggregations/values";
import { type ChargeDefinition, compiledChargeFor } from "./charge-fee";
import { aggregationOptionsFor, preciseTotalAmountCents } from "./charge-fees";
import { applyChargeModel } from "./charge-models/factory";
import type { AmountDetails } from "./charge-models/types";
import { currencyInfo, roundedMinorUnits, shiftedDecimalString } from "./currency";
import { type Decimal, type DecimalLike, ONE, ZERO, decimalString, maxDecimal, toDecimal } from "./decimal";
import { deltaAmountDetails } from "./pay-in-advance-details";
import { PRECISE_SCALE, unitAmountFields } from "./unit-amount";

/** The cached aggregation of a (subscription, charge, filter, group, period): running value and period maximum. */
export interface HighWaterMark {
  current: DecimalLike;
  max: DecimalLike;
}

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

/** Contribution of the event above the high-water mark (sum / unique count), and the new mark. */
function contributionOf(input: PayInAdvanceInput, prior: readonly UsageEvent[]) {
  const { metric, event } = input;
  if (metric.aggregation_type === "unique_count_agg") {
    const key = uniqueKey(event, metric.field_name ?? "");
    const timeline = key === null ? undefined : uniqueTimelines(prior, metric.field_name ?? "").get(key);
    const active = timeline?.[timeline.length - 1]?.op === "add";
    const adding = operationOf(event) === "add";
    const newly = adding && !active ? ONE : ZERO;
    if (!input.highWaterMark) return { contribution: newly, current: newly, max: newly, applied: newly };
    const current = toDecimal(input.highWaterMark.current).plus(adding ? newly : active ? -1 : 0);
    return raise(current, toDecimal(input.highWaterMark.max), newly);
  }
  if (metric.aggregation_type !== "sum_agg") {
    const value = metric.aggregation_type === "count_agg" ? ONE : (numericValue(event, metric.field_name) ?? ZERO);
    return { contribution: value, current: value, max: value, applied: null };
  }
  const value = numericValue(event, metric.field_name) ?? ZERO;
  if (!input.highWaterMark) return { contribution: maxDecimal(value, ZERO), current: value, max: value, applied: value };
  return raise(toDecimal(input.highWaterMark.current).plus(value), toDecimal(input.highWaterMark.max), value);
}

function raise(current: Decimal, oldMax: Decimal, applied: Decimal) {
  if (current.gt(oldMax)) return { contribution: current.minus(oldMax), current, max: current, applied: null };
  return { contribution: ZERO, current, max: oldMax, applied };
}

/**
 * The fee of one pay-in-advance event: model(total with the event) − model(total without it),
 * where the event contributes only what raises the period's high-water mark (so negative events
 * and re-added units are free). Metric rounding is not applied.
 */
export function payInAdvanceFee(input: PayInAdvanceInput): PayInAdvanceFee {
  const persisted = input.persisted !== false;
  const at = eventTime(input.event);
  const upTo = input.periodEvents.filter((e) => e !== input.event && eventTime(e) <= at);
  const withEvent = [...upTo, input.event];
  const options = { ...aggregationOptionsFor(input.charge, undefined, input.premium === true), applyRounding: false, prorated: false };
  // Percentage free units: both calls reuse the running total computed with the event.
  const full = aggregate(input.metric, withEvent, { ...options, withEventValues: true });
  const stored = persisted ? full : aggregate(input.metric, upTo, options);
  const mark = contributionOf(input, upTo);
  const eventCounted = input.metric.aggregation_type === "count_agg" || numericValue(input.event, input.metric.field_name) !== null;
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
      preciseTotalAmountCents: dynamic ? preciseTotalAmountCents(events) : undefined,
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

  const units = mark.applied !== null && mark.current.lte(mark.max) && mark.contribution.isZero() ? maxDecimal(mark.applied, ZERO) : mark.contribution;
  const rounded = amount.toDecimalPlaces(exponent);
  const unit = unitAmountFields(rounded, units, exponent);
  return {
    units: decimalString(units),
    events_count: 1,
    amount_cents: roundedMinorUnits(amount, exponent),
    precise_amount_cents: shiftedDecimalString(amount.toDecimalPlaces(PRECISE_SCALE + exponent), exponent),
    unit_amount_cents: unit.unit_amount_cents,
    precise_unit_amount: unit.precise_unit_amount,
    amount_details: persisted ? deltaAmountDetails(input.charge.charge_model, afterResult.amountDetails, beforeResult.amountDetails) : {},
    contribution: decimalString(mark.contribution),
    high_water_mark: { current: decimalString(mark.current), max: decimalString(mark.max) },
  };
}
