import type { HighWaterStep } from "./aggregations/high-water-mark";
import type { AmountDetails, ChargeModelName } from "./charge-models/types";
import { roundedMinorUnits, shiftedDecimalString } from "./currency";
import { Decimal, ZERO, decimalString, maxDecimal } from "./decimal";
import { PRECISE_SCALE, unitAmountFields } from "./unit-amount";

/** The units a pay-in-advance fee shows: its contribution, or the units it applied without raising the mark. */
export function displayedUnits(mark: HighWaterStep): Decimal {
  return mark.applied !== null && mark.current.lte(mark.max) && mark.contribution.isZero()
    ? maxDecimal(mark.applied, ZERO)
    : mark.contribution;
}

/** The amount fields of a pay-in-advance fee: amount_cents rounded, unit amount from the rounded amount. */
export function inAdvanceAmountFields(amount: Decimal, units: Decimal, exponent: number) {
  const unit = unitAmountFields(amount.toDecimalPlaces(exponent), units, exponent);
  return {
    units: decimalString(units),
    events_count: 1 as const,
    amount_cents: roundedMinorUnits(amount, exponent),
    precise_amount_cents: shiftedDecimalString(amount.toDecimalPlaces(PRECISE_SCALE + exponent), exponent),
    unit_amount_cents: unit.unit_amount_cents,
    precise_unit_amount: unit.precise_unit_amount,
  };
}

/** The contribution and the cache to store after a pay-in-advance event. */
export function markFields(mark: HighWaterStep) {
  return {
    contribution: decimalString(mark.contribution),
    high_water_mark: { current: decimalString(mark.current), max: decimalString(mark.max) },
  };
}

const PERCENTAGE_KEYS = [
  "units",
  "free_units",
  "paid_units",
  "free_events",
  "paid_events",
  "fixed_fee_total_amount",
  "min_max_adjustment_total_amount",
  "per_unit_total_amount",
];

const dec = (value: unknown) => new Decimal(String(value ?? 0));

/** Pay-in-advance amount_details: what this event added (percentage, graduated_percentage); {} for other models. */
export function deltaAmountDetails(model: ChargeModelName, after: AmountDetails, before: AmountDetails): AmountDetails {
  if (model === "percentage") {
    const details: AmountDetails = { rate: after["rate"], fixed_fee_unit_amount: after["fixed_fee_unit_amount"] };
    for (const key of PERCENTAGE_KEYS) details[key] = decimalString(dec(after[key]).minus(dec(before[key])));
    details["free_units"] = decimalString(dec(details["units"]).minus(dec(details["paid_units"])));
    return details;
  }
  if (model !== "graduated_percentage") return {};
  const previous = (before["graduated_percentage_ranges"] ?? []) as AmountDetails[];
  const ranges = ((after["graduated_percentage_ranges"] ?? []) as AmountDetails[]).map((range) => {
    const old =
      previous.find((r) => r["from_value"] === range["from_value"] && r["to_value"] === range["to_value"]) ?? {};
    const units = dec(range["units"]).minus(dec(old["units"]));
    const total = dec(range["total_with_flat_amount"]).minus(dec(old["total_with_flat_amount"]));
    return {
      from_value: range["from_value"],
      to_value: range["to_value"],
      flat_unit_amount: decimalString(dec(range["flat_unit_amount"]).minus(dec(old["flat_unit_amount"]))),
      rate: range["rate"],
      units: decimalString(units),
      per_unit_total_amount: units.gt(0) ? decimalString(total.div(units).toDecimalPlaces(2)) : "0.0",
      total_with_flat_amount: decimalString(total),
    };
  });
  return { graduated_percentage_ranges: ranges };
}
