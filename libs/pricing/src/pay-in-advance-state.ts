import { highWaterStep } from "./aggregations/high-water-mark";
import type { BillableMetric, UsageEvent } from "./aggregations/types";
import { operationOf, uniqueKey } from "./aggregations/unique-count";
import { numericValue } from "./aggregations/values";
import { type ChargeDefinition, compiledChargeFor } from "./charge-fee";
import type { ChargePeriod } from "./charge-fees";
import { applyChargeModel } from "./charge-models/factory";
import { currencyInfo } from "./currency";
import { ONE, ZERO, decimalString, toDecimal } from "./decimal";
import { type PayInAdvanceFee, payInAdvanceFee } from "./pay-in-advance";
import { displayedUnits, inAdvanceAmountFields, markFields } from "./pay-in-advance-details";
import { proratedPayInAdvanceFee } from "./pay-in-advance-prorated";

/**
 * What the pay-in-advance fees of one bucket (subscription, charge, filter, group, charges period)
 * leave behind, so the next event's fee needs no read of the period's events: the high-water
 * mark, and either the running aggregate (count, sum, unique count priced by a model that needs
 * only the total: standard, package, graduated, or a prorated standard charge) or, for the other
 * models (percentage and its free units per events, graduated percentage, dynamic, custom), the
 * bucket's events themselves. JSON-safe (decimals as strings), so a service can store it as is.
 */
export interface AdvanceBucketState {
  mark: { current: string; max: string } | null;
  /** incremental: the aggregate of the bucket's events so far (no metric rounding) */
  units: string;
  /** incremental: the events counted so far (what the aggregation counts) */
  events_count: number;
  /** incremental unique_count_agg: the values active now */
  active?: string[];
  /** the charges period the state belongs to (ISO start), for a recurring metric's bucket that outlives its period */
  period_from?: string;
  /** other models: the bucket's events so far */
  events?: StoredAdvanceEvent[];
}

export interface StoredAdvanceEvent {
  transaction_id?: string;
  timestamp: string;
  properties: Record<string, unknown>;
}

export interface AdvanceStepInput {
  /** The charge (or matched filter): model, properties, prorated. */
  charge: ChargeDefinition;
  metric: BillableMetric;
  event: UsageEvent;
  /** The bucket's state before the event; null for its first event. */
  state: AdvanceBucketState | null;
  currency: string;
  premium?: boolean;
  /** The charges period (required for a prorated charge; a dynamic charge counts the amounts inside it). */
  period?: ChargePeriod;
}

const INCREMENTAL_MODELS = new Set(["standard", "package", "graduated"]);
const INCREMENTAL_AGGREGATIONS = new Set(["count_agg", "sum_agg", "unique_count_agg"]);

/** Whether the bucket is priced from its running aggregate (true) or from its events. */
export function incrementalAdvance(charge: ChargeDefinition, metric: BillableMetric): boolean {
  if (!INCREMENTAL_AGGREGATIONS.has(metric.aggregation_type)) return false;
  return charge.prorated === true || INCREMENTAL_MODELS.has(charge.charge_model);
}

/**
 * A recurring metric's bucket entering a new charges period: its units carry over (they were paid
 * at the period start, billing-rules §1.12), so the new period's high-water mark starts at the
 * carried level and only units above it are paid in advance again.
 */
export function carriedIntoPeriod(state: AdvanceBucketState, periodFrom: string): AdvanceBucketState {
  if (state.period_from === periodFrom) return state;
  const mark = state.mark && { current: state.mark.current, max: state.mark.current };
  return { ...state, mark, period_from: periodFrom };
}

const isoOf = (t: UsageEvent["timestamp"]) =>
  t instanceof Date ? t.toISOString() : typeof t === "number" ? new Date(t).toISOString() : t;

/**
 * The fee of one pay-in-advance event from its bucket's state, and the state after it: the same
 * fee as `payInAdvanceFee` over the bucket's stored events (billing-rules §1.12: model(total) −
 * model(total − contribution), the contribution above the high-water mark; §1.11 for a prorated
 * charge), in constant time for the incremental models. Events are taken in the order they are
 * given (the order they were stored), as Lago's cached high-water mark is.
 */
export function advanceFeeStep(input: AdvanceStepInput): { fee: PayInAdvanceFee; state: AdvanceBucketState } {
  const { metric, event } = input;
  const state = input.state;
  if (!incrementalAdvance(input.charge, metric)) {
    const prior: StoredAdvanceEvent[] = state?.events ?? [];
    const fee = payInAdvanceFee({
      charge: input.charge,
      metric,
      event,
      periodEvents: [...prior, event],
      highWaterMark: state?.mark ?? null,
      currency: input.currency,
      premium: input.premium,
      persisted: true,
      period: input.period,
    });
    const stored: StoredAdvanceEvent = {
      ...(event.transaction_id ? { transaction_id: event.transaction_id } : {}),
      timestamp: isoOf(event.timestamp),
      properties: { ...(event.properties ?? {}) },
    };
    return { fee, state: { mark: fee.high_water_mark, units: "0", events_count: 0, events: [...prior, stored] } };
  }

  const field = metric.field_name ?? "";
  const active = new Set(state?.active ?? []);
  // the unique values active before the event, as the prior events highWaterStep reads
  const key = metric.aggregation_type === "unique_count_agg" ? uniqueKey(event, field) : null;
  const prior: UsageEvent[] = key !== null && active.has(key) ? [{ timestamp: 0, properties: { [field]: key } }] : [];
  let units = toDecimal(state?.units ?? "0");
  let eventsCount = state?.events_count ?? 0;
  if (metric.aggregation_type === "count_agg") {
    units = units.plus(ONE);
    eventsCount++;
  } else if (metric.aggregation_type === "sum_agg") {
    const value = numericValue(event, field);
    if (value !== null) {
      units = units.plus(value);
      eventsCount++;
    }
  } else if (key !== null) {
    if (operationOf(event) === "add") active.add(key);
    else active.delete(key);
    units = toDecimal(active.size);
    eventsCount = active.size;
  }
  const next = (mark: { current: string; max: string }): AdvanceBucketState => ({
    mark,
    units: decimalString(units),
    events_count: eventsCount,
    ...(metric.aggregation_type === "unique_count_agg" ? { active: [...active] } : {}),
  });

  if (input.charge.prorated === true) {
    const fee = proratedPayInAdvanceFee({
      charge: input.charge,
      metric,
      event,
      periodEvents: [...prior, event],
      highWaterMark: state?.mark ?? null,
      currency: input.currency,
      period: input.period,
    });
    return { fee, state: next(fee.high_water_mark) };
  }
  const mark = highWaterStep(metric, event, prior, state?.mark ?? null);
  const charge = compiledChargeFor(input.charge);
  const { exponent, subunit } = currencyInfo(input.currency);
  const price = (total: typeof units, count: number, excludeEvent: boolean) =>
    applyChargeModel(charge, { units: total, eventsCount: count, subunit, premium: input.premium, excludeEvent })
      .amount;
  // the "before" call leaves the event out (a graduated first tier's flat fee is the first event's)
  const amount = price(units, eventsCount, false).minus(
    price(units.minus(mark.contribution), Math.max(eventsCount - 1, 0), true),
  );
  const fee: PayInAdvanceFee = {
    ...inAdvanceAmountFields(amount.isNegative() ? ZERO : amount, displayedUnits(mark), exponent),
    amount_details: {},
    ...markFields(mark),
  };
  return { fee, state: next(fee.high_water_mark) };
}
