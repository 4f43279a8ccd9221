import type { AggregationResult } from "./aggregations/types";
import { type CompiledCharge, applyChargeModel, compileCharge } from "./charge-models/factory";
import type { AmountDetails, ChargeModelName } from "./charge-models/types";
import { currencyInfo } from "./currency";
import { minorUnits, shiftedString, splitPlain } from "./plain-decimal";
import { type Decimal, ZERO, atMostDecimals, decimalString } from "./decimal";
import { PRECISE_SCALE, unitAmountFields } from "./unit-amount";

/** A charge as configured on a plan (or one of its filters): model, properties, proration. */
export interface ChargeDefinition {
  charge_model: ChargeModelName;
  properties: Record<string, unknown>;
  prorated?: boolean;
}

/** The amount fields of a usage-charge Fee (spec: Fee), plus the unrounded amount. */
export interface ChargeFeeAmounts {
  units: string;
  total_aggregated_units: string;
  events_count: number;
  amount_cents: number;
  precise_amount_cents: string;
  unit_amount_cents: number;
  precise_unit_amount: string;
  amount_details: AmountDetails;
  /** Amount in major units, unrounded (after the negative clamp). */
  amount: Decimal;
  /** Lago persists a charge fee only when units, amount or events_count is non-zero. */
  persistable: boolean;
}

export interface ChargeFeeInput {
  charge: ChargeDefinition | CompiledCharge;
  aggregation: AggregationResult;
  currency: string;
  premium?: boolean;
  /** Pay-in-advance "before" computation (see payInAdvanceFee). */
  excludeEvent?: boolean;
}

const compiledCache = new WeakMap<object, CompiledCharge[]>();

/** Compiles a charge definition once per properties object (cached by identity). */
export function compiledChargeFor(charge: ChargeDefinition | CompiledCharge): CompiledCharge {
  if ("model" in charge) return charge;
  const prorated = charge.prorated === true;
  let entries = compiledCache.get(charge.properties);
  if (!entries) compiledCache.set(charge.properties, (entries = []));
  for (const entry of entries) {
    if (entry.chargeModel === charge.charge_model && entry.prorated === prorated) return entry;
  }
  const compiled = compileCharge(charge.charge_model, charge.properties, { prorated });
  entries.push(compiled);
  return compiled;
}

/**
 * Prices one aggregation with one charge model and rounds it into a Fee's amount fields:
 * amount_cents half away from zero at the currency exponent, unit_amount_cents truncated,
 * precise_* unrounded. Negative units or amount give a zero fee (details keep the computation).
 */
export function computeChargeFee(input: ChargeFeeInput): ChargeFeeAmounts {
  const charge = compiledChargeFor(input.charge);
  const { exponent, subunit } = currencyInfo(input.currency);
  const agg = input.aggregation;
  const result = applyChargeModel(charge, {
    units: agg.units,
    fullUnitsNumber: agg.fullUnitsNumber,
    eventsCount: agg.eventsCount,
    runningTotal: agg.runningTotal,
    eventValues: agg.eventValues,
    proratedEventValues: agg.proratedEventValues,
    preciseTotalAmountCents: agg.preciseTotalAmountCents,
    subunit,
    excludeEvent: input.excludeEvent,
    premium: input.premium,
  });
  let amount = result.amount;
  let units = charge.prorated ? (agg.fullUnitsNumber ?? agg.units) : agg.units;
  if (agg.units.isNegative() || amount.isNegative()) {
    amount = ZERO;
    units = ZERO;
  }
  // One plain string of the amount feeds every rounding below (cheaper than Decimal arithmetic).
  const precise = atMostDecimals(amount, PRECISE_SCALE + exponent);
  const plain = splitPlain(precise.toFixed());
  const amountCents = minorUnits(plain, exponent, "round");
  const unit = unitAmountFields(amount, result.unitAmountBase, exponent, precise === amount ? plain : undefined);
  const unitsString = decimalString(units);
  return {
    units: unitsString,
    total_aggregated_units: agg.totalAggregatedUnits
      ? decimalString(agg.totalAggregatedUnits)
      : units === agg.units
        ? unitsString
        : decimalString(agg.units),
    events_count: agg.eventsCount,
    amount_cents: amountCents,
    precise_amount_cents: shiftedString(plain, exponent),
    unit_amount_cents: unit.unit_amount_cents,
    precise_unit_amount: unit.precise_unit_amount,
    amount_details: result.amountDetails,
    amount,
    persistable: !units.isZero() || amountCents !== 0 || agg.eventsCount !== 0,
  };
}
