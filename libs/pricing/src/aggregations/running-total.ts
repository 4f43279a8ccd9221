import { type Decimal, type DecimalLike, ZERO, toDecimal } from "../decimal";
import { fromFloat } from "../lago-float";

export interface FreeUnitsOptions {
  free_units_per_events?: number | null;
  free_units_per_total_aggregation?: DecimalLike | null;
}

/**
 * The cumulative values a percentage charge needs for its free units, in timestamp order:
 * the first N events when free_units_per_events = N > 0, otherwise the events while the previous
 * cumulative total is ≤ T (so the event crossing T is included). Empty when neither is set.
 * Lago quirk: the cumulative sums are Float additions (Ruby `0.0 + x`).
 */
export function runningTotal(values: readonly Decimal[], options: FreeUnitsOptions): Decimal[] {
  const perEvents = Number(options.free_units_per_events ?? 0) || 0;
  const perTotal = toDecimal(options.free_units_per_total_aggregation ?? null, ZERO);
  if (!hasFreeUnits(options)) return [];
  const limit = perTotal.toNumber();
  const totals: Decimal[] = [];
  let total = 0;
  for (const value of perEvents > 0 ? values.slice(0, perEvents) : values) {
    if (perEvents === 0 && limit < total) break;
    total += value.toNumber();
    totals.push(fromFloat(total));
  }
  return totals;
}

/** Whether free units are set at all (neither: the running totals are empty, and need no event's value). */
export function hasFreeUnits(options: FreeUnitsOptions): boolean {
  const perEvents = Number(options.free_units_per_events ?? 0) || 0;
  return perEvents !== 0 || !toDecimal(options.free_units_per_total_aggregation ?? null, ZERO).isZero();
}

/** count_agg and unique_count_agg: the running total is simply 1, 2, …, units. */
export function countingRunningTotal(units: Decimal, options: FreeUnitsOptions): Decimal[] {
  if (!hasFreeUnits(options)) return [];
  const n = Math.max(0, Math.floor(units.toNumber()));
  return Array.from({ length: n }, (_, i) => fromFloat(i + 1));
}
