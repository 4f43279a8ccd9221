import type { FixedChargeModelName } from "@billing/codes";
import type { AggregationResult } from "./aggregations/types";
import { type ChargeFeeAmounts, computeChargeFee } from "./charge-fee";
import { type CompiledCharge, compileCharge } from "./charge-models/factory";
import { Decimal, type DecimalLike, ZERO, toDecimal } from "./decimal";
import { addDays, inclusiveDays, maxDate, minDate } from "./periods/local-date";
import { type Instant, instantMs, localDateOf } from "./periods/timezone";

/** A plan's fixed charge (spec: Fixed charge): an add-on priced on a number of units. */
export interface FixedChargeDefinition {
  charge_model: FixedChargeModelName;
  properties: Record<string, unknown>;
  prorated?: boolean;
  /** Which span it bills (see subscriptionInvoicePeriods: fixed_charges vs fixed_charges_in_advance); no effect on the amount. */
  pay_in_advance?: boolean;
}

/** The subscription's unit count of a fixed charge from an instant on (a units override or change). */
export interface FixedChargeUnitsLevel {
  units: DecimalLike;
  from: Instant;
}

export interface FixedChargeFeeInput {
  fixed_charge: FixedChargeDefinition;
  /** A constant unit count, or the levels over time (those before the period are carried in). */
  units: DecimalLike | readonly FixedChargeUnitsLevel[];
  /** The span billed (from start of its first day to end of its last, or the termination) and the full period length. */
  period: { from: Instant; to: Instant; periodDays: number; timeZone?: string };
  currency: string;
}

const compiledCache = new WeakMap<object, Map<string, CompiledCharge>>();

/**
 * The plain model (graduated is not the prorated-graduated walk: fixed charges price their
 * prorated units directly), flagged prorated so the fee shows the full unit count and volume
 * picks its tier on it.
 */
function compiledFixedCharge(definition: FixedChargeDefinition): CompiledCharge {
  let byModel = compiledCache.get(definition.properties);
  if (!byModel) compiledCache.set(definition.properties, (byModel = new Map()));
  const key = `${definition.charge_model}:${definition.prorated === true}`;
  let compiled = byModel.get(key);
  if (!compiled) {
    compiled = {
      ...compileCharge(definition.charge_model, definition.properties),
      prorated: definition.prorated === true,
    };
    byModel.set(key, compiled);
  }
  return compiled;
}

function levelsOf(units: FixedChargeFeeInput["units"]): { units: Decimal; fromMs: number }[] {
  if (!Array.isArray(units)) return [{ units: toDecimal(units as DecimalLike), fromMs: -Infinity }];
  return (units as readonly FixedChargeUnitsLevel[])
    .map((l) => ({ units: toDecimal(l.units), fromMs: instantMs(l.from) }))
    .sort((a, b) => a.fromMs - b.fromMs);
}

/**
 * The units a fixed charge bills over a span: the count in effect at its end, or, prorated,
 * Σ count × days it held within the span / period days (ceil'ed to 5 decimals), days in the
 * customer's zone. A level holds from its first day to the day before the next one starts (a
 * change day is billed at the new count, never twice); counts ≤ 0 add nothing.
 */
export function fixedChargeAggregation(
  input: Omit<FixedChargeFeeInput, "currency" | "fixed_charge"> & { prorated?: boolean },
): AggregationResult {
  const zone = input.period.timeZone ?? "UTC";
  const toMs = instantMs(input.period.to);
  const levels = levelsOf(input.units).filter((l) => l.fromMs <= toMs);
  const full = levels.length > 0 ? levels[levels.length - 1]!.units : ZERO;
  const result: AggregationResult = {
    units: full,
    eventsCount: levels.length,
    fullUnitsNumber: full,
    totalAggregatedUnits: full,
  };
  if (!input.prorated) return result;
  const fromDate = localDateOf(input.period.from, zone);
  const toDate = localDateOf(toMs, zone);
  let prorated = ZERO;
  levels.forEach((level, i) => {
    if (!level.units.gt(0)) return;
    const next = levels[i + 1];
    const first = level.fromMs === -Infinity ? fromDate : maxDate(localDateOf(level.fromMs, zone), fromDate);
    const last = next ? minDate(addDays(localDateOf(next.fromMs, zone), -1), toDate) : toDate;
    const days = inclusiveDays(first, last);
    if (days > 0) prorated = prorated.plus(level.units.times(days).div(input.period.periodDays));
  });
  return { ...result, units: prorated.toDecimalPlaces(5, Decimal.ROUND_CEIL) };
}

/**
 * The fee of a fixed charge for a span (billing-rules §3 step 1): its model applied to the units
 * (prorated units when the charge is prorated: a partial first or last period, or unit changes
 * within the period). Arrears fixed charges bill the period that ended, pay-in-advance ones the
 * period that starts (subscriptionInvoicePeriods gives both spans). Fee `units` shows the full count;
 * `persistable` is false for a fee with neither units nor amount.
 */
export function computeFixedChargeFee(input: FixedChargeFeeInput): ChargeFeeAmounts {
  const charge = compiledFixedCharge(input.fixed_charge);
  const aggregation = fixedChargeAggregation({ units: input.units, period: input.period, prorated: charge.prorated });
  const fee = computeChargeFee({ charge, aggregation, currency: input.currency });
  // Lago keeps a fixed-charge fee when it has units or an amount (its event count does not matter).
  return { ...fee, persistable: fee.units !== "0.0" || fee.amount_cents !== 0 };
}
