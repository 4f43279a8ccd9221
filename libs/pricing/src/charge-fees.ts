import { type AggregateOptions, aggregate } from "./aggregations/factory";
import type { AggregationResult, BillableMetric, UsageEvent } from "./aggregations/types";
import { type ChargeDefinition, type ChargeFeeAmounts, computeChargeFee } from "./charge-fee";
import { type Decimal, ZERO, parseDecimal } from "./decimal";
import { type ChargeFilter, type MetricFilter, bucketEventsByFilter } from "./filters";
import { type GroupedBy, groupEvents, pricingGroupKeys } from "./grouping";
import { type Instant, instantMs } from "./periods/timezone";
import { eventTime } from "./aggregations/values";
import { type TrueUpFee, computeTrueUpFee } from "./true-up";

/** A plan charge with everything pricing needs (spec: Charge). */
export interface UsageCharge extends ChargeDefinition {
  filters?: ChargeFilter[];
  min_amount_cents?: number | null;
  pay_in_advance?: boolean;
}

/** The charges period being billed. */
export interface ChargePeriod {
  from: Instant;
  to: Instant;
  /** Full period length in days (weighted sum, proration, true-up divisor). */
  periodDays: number;
  /** Days actually billed, for the true-up proration (defaults to periodDays). */
  billedDays?: number;
  timeZone?: string;
}

export interface ChargeFee extends ChargeFeeAmounts {
  /** Index in charge.filters of the filter priced, null for the default bucket. */
  charge_filter_index: number | null;
  grouped_by: GroupedBy;
}

export interface ChargeFeesInput {
  charge: UsageCharge;
  metric: BillableMetric & { filters?: MetricFilter[] };
  /** The subscription's events for this metric (earlier periods included for recurring metrics). */
  events: readonly UsageEvent[];
  currency: string;
  period: ChargePeriod;
  premium?: boolean;
  /** weighted_sum on a recurring metric: the level carried from the previous period. */
  initialValue?: string | number | null;
  /** false on progressive-billing invoices (no true-up there). */
  withTrueUp?: boolean;
}

/** Aggregation options a charge model needs from its properties. */
export function aggregationOptionsFor(
  definition: ChargeDefinition,
  period: ChargePeriod | undefined,
  premium: boolean,
): AggregateOptions {
  const p = definition.properties ?? {};
  const percentage = definition.charge_model === "percentage";
  const minMax =
    percentage && premium && (p["per_transaction_min_amount"] != null || p["per_transaction_max_amount"] != null);
  return {
    ...(period
      ? { from: period.from, to: period.to, periodDays: period.periodDays, timeZone: period.timeZone ?? "UTC" }
      : {}),
    prorated: definition.prorated === true,
    payInAdvance: (definition as UsageCharge).pay_in_advance === true,
    withEventValues: minMax,
    freeUnits: percentage
      ? {
          free_units_per_events: p["free_units_per_events"] as number,
          free_units_per_total_aggregation: p["free_units_per_total_aggregation"] as string,
        }
      : undefined,
  };
}

/** Σ precise_total_amount_cents of the events (dynamic charges). */
export function preciseTotalAmountCents(events: readonly UsageEvent[]): Decimal {
  return events.reduce((sum, e) => sum.plus(parseDecimal(e.precise_total_amount_cents) ?? ZERO), ZERO);
}

/** The events timestamped inside [from, to] (both included); all of them when a bound is absent. */
export function eventsInPeriod(
  events: readonly UsageEvent[],
  period: { from?: Instant | null; to?: Instant | null } | undefined,
): readonly UsageEvent[] {
  const fromMs = period?.from == null ? -Infinity : instantMs(period.from);
  const toMs = period?.to == null ? Infinity : instantMs(period.to);
  if (fromMs === -Infinity && toMs === Infinity) return events;
  return events.filter((e) => {
    const t = eventTime(e);
    return t >= fromMs && t <= toMs;
  });
}

function bucketAggregations(input: ChargeFeesInput, bucketEvents: readonly UsageEvent[], definition: ChargeDefinition) {
  const options = {
    ...aggregationOptionsFor(definition, input.period, input.premium === true),
    initialValue: input.initialValue,
  };
  // dynamic (billing-rules §1.7): only the period's own events count, for the amount as for the
  // units; events carried by a recurring metric or passed in from earlier periods add nothing.
  const dynamic = definition.charge_model === "dynamic";
  const events = dynamic ? eventsInPeriod(bucketEvents, input.period) : bucketEvents;
  const withDynamic = (result: AggregationResult, bucket: readonly UsageEvent[]) =>
    dynamic ? { ...result, preciseTotalAmountCents: preciseTotalAmountCents(bucket) } : result;
  const keys = pricingGroupKeys(definition.properties);
  const groups = keys.length > 0 ? groupEvents(events, keys) : [];
  if (groups.length === 0)
    return [{ groupedBy: {}, aggregation: withDynamic(aggregate(input.metric, events, options), events) }];
  return groups.map((g) => ({
    groupedBy: g.groupedBy,
    aggregation: withDynamic(aggregate(input.metric, g.events, options), g.events),
  }));
}

/**
 * Every fee of one charge for one period: one per filter and one for the default bucket (priced
 * with the charge's own properties), each split by pricing group keys; then the true-up fee when
 * the charge has a spending minimum.
 */
export function computeChargeFees(input: ChargeFeesInput): { fees: ChargeFee[]; true_up_fee: TrueUpFee | null } {
  const { charge } = input;
  const filters = charge.filters ?? [];
  const { byFilter, unmatched } =
    filters.length > 0
      ? bucketEventsByFilter(input.events, filters, input.metric.filters)
      : { byFilter: [], unmatched: input.events };
  const buckets = [
    ...filters.map((filter, i) => ({
      index: i as number | null,
      events: byFilter[i]!,
      definition: { ...charge, properties: filter.properties ?? {} },
    })),
    { index: null, events: unmatched, definition: charge as ChargeDefinition },
  ];
  const fees: ChargeFee[] = [];
  for (const bucket of buckets) {
    for (const { groupedBy, aggregation } of bucketAggregations(input, bucket.events, bucket.definition)) {
      const amounts = computeChargeFee({
        charge: bucket.definition,
        aggregation,
        currency: input.currency,
        premium: input.premium,
      });
      fees.push({ ...amounts, charge_filter_index: bucket.index, grouped_by: groupedBy });
    }
  }
  return { fees, true_up_fee: trueUpOf(input, fees) };
}

/** The spending minimum's true-up of a charge's fees for the period (none on progressive invoices or pay-in-advance charges). */
function trueUpOf(
  input: Pick<ChargeFeesInput, "charge" | "withTrueUp" | "period" | "currency">,
  fees: readonly ChargeFee[],
): TrueUpFee | null {
  const { charge } = input;
  const withTrueUp = input.withTrueUp !== false && !charge.pay_in_advance && (charge.min_amount_cents ?? 0) > 0;
  return withTrueUp
    ? computeTrueUpFee({
        min_amount_cents: charge.min_amount_cents!,
        fees: fees.map((f) => ({ amount_cents: f.amount_cents, precise_amount_cents: f.precise_amount_cents })),
        charges_duration_days: input.period.periodDays,
        billed_days: input.period.billedDays,
        currency: input.currency,
      })
    : null;
}

/** The aggregations whose result is the units and the count of the values, nothing per event (what pre-aggregated partials hold). */
const UNIT_AGGREGATIONS: ReadonlySet<string> = new Set(["count_agg", "sum_agg", "max_agg"]);
/** The charge models that price the units alone (no per-event values, running totals or event amounts). */
const UNIT_MODELS: ReadonlySet<string> = new Set(["standard", "graduated", "volume", "package"]);

/**
 * Whether a charge's periodic fees depend on its period's events only through their aggregated
 * units and count: a count, sum or max of a non-recurring metric, in arrears, not prorated,
 * without filters or pricing groups, on a model that prices units alone. Such a charge can be
 * priced from partials aggregated beforehand (computeChargeFeesFromUnits) with the same result
 * as computeChargeFees over the events.
 */
export function pricedFromUnits(charge: UsageCharge, metric: BillableMetric): boolean {
  return (
    UNIT_AGGREGATIONS.has(metric.aggregation_type) &&
    !metric.recurring &&
    UNIT_MODELS.has(charge.charge_model) &&
    charge.prorated !== true &&
    charge.pay_in_advance !== true &&
    (charge.filters ?? []).length === 0 &&
    pricingGroupKeys(charge.properties).length === 0
  );
}

export interface UnitsChargeFeesInput extends Omit<ChargeFeesInput, "events" | "initialValue"> {
  /** the period's aggregated units, after the metric's rounding (the aggregation's `units`) */
  units: Decimal;
  /** the number of events (count_agg) or of numeric values (sum_agg, max_agg) aggregated */
  eventsCount: number;
}

/**
 * computeChargeFees for a charge pricedFromUnits, from its period's aggregated units and count
 * instead of its events: the one fee of its default bucket, then the true-up when the charge has
 * a spending minimum. A charge that is not pricedFromUnits is refused (its fees need the events).
 */
export function computeChargeFeesFromUnits(input: UnitsChargeFeesInput): {
  fees: ChargeFee[];
  true_up_fee: TrueUpFee | null;
} {
  if (!pricedFromUnits(input.charge, input.metric))
    throw new RangeError(
      `charge model ${input.charge.charge_model} on ${input.metric.aggregation_type} needs its events`,
    );
  const amounts = computeChargeFee({
    charge: input.charge,
    aggregation: { units: input.units, eventsCount: input.eventsCount },
    currency: input.currency,
    premium: input.premium,
  });
  const fees: ChargeFee[] = [{ ...amounts, charge_filter_index: null, grouped_by: {} }];
  return { fees, true_up_fee: trueUpOf(input, fees) };
}
