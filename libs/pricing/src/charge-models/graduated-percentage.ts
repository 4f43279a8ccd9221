import { type Decimal, HUNDRED, ZERO, decimalString } from "../decimal";
import { type Range, lastReachedIndex, parseRanges } from "./ranges";
import { unitAmountBase } from "./shared";
import type { AmountDetails, ChargeModel } from "./types";

/** Units of a range, always with the inclusive formula (Lago never uses the adjacent one here). */
function unitsInRange(range: Range, units: Decimal): Decimal {
  if (range.to !== null && units.gte(range.to)) {
    return range.to.minus(range.from.isZero() ? 1 : range.from).plus(1);
  }
  return range.from.isZero() ? units : units.minus(range.from).plus(1);
}

/** graduated_percentage: each reached range bills units × rate / 100 plus its flat amount. */
export const graduatedPercentageModel: ChargeModel<Range[]> = {
  compile: (properties) => parseRanges(properties["graduated_percentage_ranges"], "rate"),

  apply(ranges, input) {
    const details: AmountDetails[] = [];
    let amount = ZERO;
    if (ranges.length > 0) {
      const last = lastReachedIndex(ranges, input.units);
      // Pay-in-advance "before" computation at 0 units: no flat fee.
      const noFlat = input.excludeEvent === true && input.units.isZero();
      for (let i = 0; i <= last; i++) {
        const range = ranges[i]!;
        const units = unitsInRange(range, input.units);
        const perUnitTotal = units.times(range.price).div(HUNDRED);
        const flat = noFlat ? ZERO : range.flat;
        const total = perUnitTotal.plus(flat);
        amount = amount.plus(total);
        details.push({
          from_value: range.fromValue,
          to_value: range.toValue,
          flat_unit_amount: decimalString(flat),
          rate: decimalString(range.price),
          units: decimalString(units),
          per_unit_total_amount: decimalString(perUnitTotal),
          total_with_flat_amount: decimalString(total),
        });
      }
    }
    return {
      amount,
      unitAmountBase: unitAmountBase(input),
      amountDetails: { graduated_percentage_ranges: details },
    };
  },
};
