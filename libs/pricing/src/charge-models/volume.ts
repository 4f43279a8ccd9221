import { type Decimal, ZERO, decimalString } from "../decimal";
import { fdiv, fromFloat } from "../lago-float";
import { type Range, parseRanges } from "./ranges";
import type { ChargeModel } from "./types";

/**
 * The range holding n: from_value ≤ ceil(n) and (open or n ≤ to_value), ranges sorted by from_value.
 * Not specified by Lago for n < 0 (it would fail): the first range is used, the fee is clamped to 0 anyway.
 */
function volumeRangeFor(ranges: readonly Range[], n: Decimal): Range | undefined {
  const ceiled = n.ceil();
  const match = ranges.find((r) => r.from.lte(ceiled) && (r.to === null || n.lte(r.to)));
  return match ?? (n.isNegative() ? ranges[0] : ranges[ranges.length - 1]);
}

/** volume: one range, chosen by the total, prices every unit; its flat amount is added once. */
export const volumeModel: ChargeModel<Range[]> = {
  compile: (properties) =>
    parseRanges(properties["volume_ranges"], "per_unit_amount").sort((a, b) => a.from.cmp(b.from)),

  apply(ranges, input) {
    // A prorated charge picks its tier with the full (non-prorated) count.
    const n = input.prorated && input.fullUnitsNumber ? input.fullUnitsNumber : input.units;
    const range = volumeRangeFor(ranges, n);
    const flat = range?.flat ?? ZERO;
    const perUnitTotal = input.units.times(range?.price ?? ZERO);
    const amount = perUnitTotal.plus(flat);
    // Lago quirk: the displayed per_unit_amount is a float division.
    const perUnitAmount = n.isZero() ? ZERO : fromFloat(fdiv(perUnitTotal, n));
    const amountDetails = {
      flat_unit_amount: decimalString(flat),
      per_unit_amount: decimalString(perUnitAmount),
      per_unit_total_amount: decimalString(perUnitTotal),
    };
    return { amount, unitAmountBase: n, amountDetails };
  },
};
