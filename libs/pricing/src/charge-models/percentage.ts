import { type Decimal, HUNDRED, ZERO, decimalString } from "../decimal";
import { readDecimal, readOptionalDecimal, unitAmountBase } from "./shared";
import type { ChargeModel, ChargeModelInput } from "./types";

export interface PercentageProperties {
  rate: Decimal;
  fixedAmount: Decimal;
  freePerEvents: number;
  freePerTotal: Decimal;
  min: Decimal | null;
  max: Decimal | null;
}

/** Free amount: from the running total of the first events (see aggregations/running-total). */
function freeUnitsValue(p: PercentageProperties, runningTotal: readonly Decimal[]): Decimal {
  const last = runningTotal[runningTotal.length - 1] ?? ZERO;
  if (last.isZero()) return ZERO;
  if (p.freePerEvents > 0 && p.freePerEvents < runningTotal.length) return runningTotal[p.freePerEvents - 1]!;
  if (p.freePerTotal.isZero() || last.lte(p.freePerTotal)) return last;
  return p.freePerTotal;
}

/** Free events: the smallest non-zero of N and the number of running totals strictly below T. */
function freeEventsCount(p: PercentageProperties, runningTotal: readonly Decimal[]): number {
  const belowTotal = runningTotal.filter((value) => value.lt(p.freePerTotal)).length;
  const candidates = [p.freePerEvents, belowTotal].filter((n) => n !== 0);
  return candidates.length === 0 ? 0 : Math.min(...candidates);
}

function clamp(amount: Decimal, p: PercentageProperties): Decimal {
  if (p.min !== null && amount.lt(p.min)) return p.min;
  if (p.max !== null && amount.gt(p.max)) return p.max;
  return amount;
}

/** Event by event: free events / free amount first, then value × rate + fixed clamped to [min, max]. */
function perTransactionAmount(p: PercentageProperties, eventValues: readonly Decimal[]): Decimal {
  let freeEvents = p.freePerEvents;
  let freeAmount = p.freePerTotal;
  let total = ZERO;
  for (const eventValue of eventValues) {
    let value = eventValue;
    if (freeEvents > 0 || freeAmount.gt(0)) {
      freeEvents -= 1;
      if (freeAmount.lte(0)) continue;
      if (freeAmount.gt(value)) {
        freeAmount = freeAmount.minus(value);
        continue;
      }
      value = value.minus(freeAmount);
      freeAmount = ZERO;
      freeEvents = 0;
    }
    total = total.plus(clamp(value.times(p.rate).div(HUNDRED).plus(p.fixedAmount), p));
  }
  return total;
}

function usesMinMax(p: PercentageProperties, input: ChargeModelInput): boolean {
  return input.premium === true && (p.min !== null || p.max !== null);
}

/** percentage: (units − free units) × rate / 100 + fixed_amount per paid event. */
export const percentageModel: ChargeModel<PercentageProperties> = {
  compile: (properties) => ({
    rate: readDecimal(properties, "rate"),
    fixedAmount: readDecimal(properties, "fixed_amount"),
    freePerEvents: Number(properties["free_units_per_events"] ?? 0) || 0,
    freePerTotal: readDecimal(properties, "free_units_per_total_aggregation"),
    min: readOptionalDecimal(properties, "per_transaction_min_amount"),
    max: readOptionalDecimal(properties, "per_transaction_max_amount"),
  }),

  apply(p, input) {
    const runningTotal = input.runningTotal ?? [];
    const count = input.eventsCount;
    const freeUnits = freeUnitsValue(p, runningTotal);
    const freeEvents = freeEventsCount(p, runningTotal);
    const percentageAmount = freeUnits.gt(input.units) ? ZERO : input.units.minus(freeUnits).times(p.rate).div(HUNDRED);
    const fixedTotal = input.units.isZero() || freeEvents >= count ? ZERO : p.fixedAmount.times(count - freeEvents);
    const minMax = usesMinMax(p, input);
    const amount = minMax ? perTransactionAmount(p, input.eventValues ?? []) : percentageAmount.plus(fixedTotal);

    const paidUnits = input.units.minus(freeUnits);
    const shownFreeEvents = Math.min(count, freeEvents);
    const paidEvents = count - shownFreeEvents;
    const amountDetails = {
      units: decimalString(input.units),
      free_units: decimalString(freeUnits),
      free_events: shownFreeEvents,
      paid_units: decimalString(paidUnits.isNegative() ? ZERO : paidUnits),
      rate: decimalString(p.rate),
      per_unit_total_amount: decimalString(percentageAmount),
      paid_events: paidEvents,
      fixed_fee_unit_amount: decimalString(paidEvents > 0 ? p.fixedAmount : ZERO),
      fixed_fee_total_amount: decimalString(fixedTotal),
      min_max_adjustment_total_amount: decimalString(minMax ? amount.minus(percentageAmount).minus(fixedTotal) : ZERO),
    };
    return { amount, unitAmountBase: unitAmountBase(input), amountDetails };
  },
};
