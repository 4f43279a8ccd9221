import { type Decimal, ZERO, decimalString } from "../decimal";
import { type Range, isAdjacentLayout, lastReachedIndex, parseRanges } from "./ranges";
import { unitAmountBase } from "./shared";
import type { AmountDetails, ChargeModel } from "./types";

interface CompiledGraduated {
  ranges: PreparedRange[];
  /** Details of range i when fully consumed (units ≥ to_value); undefined for an open range. */
  fullDetails: (AmountDetails | undefined)[];
  /** Σ total_with_flat_amount of ranges 0..i-1 when all fully consumed. */
  amountBefore: Decimal[];
}

/** A range with what pricing needs precomputed: where its units start, its prices as strings. */
interface PreparedRange extends Range {
  /** Units before the range: 0 for a range from 0, from − 1 (inclusive) or from (adjacent). */
  offset: Decimal;
  flatString: string;
  priceString: string;
}

function prepare(range: Range, adjacent: boolean): PreparedRange {
  const offset = range.from.isZero() ? ZERO : adjacent ? range.from : range.from.minus(1);
  return { ...range, offset, flatString: decimalString(range.flat), priceString: decimalString(range.price) };
}

/** Units of `range` billed for `units` in total (amount_details/range_graduated semantics). */
function unitsInRange(range: PreparedRange, units: Decimal): Decimal {
  const effective = range.to !== null && units.gte(range.to) ? range.to : units;
  return range.offset.isZero() ? effective : effective.minus(range.offset);
}

function rangeDetails(range: PreparedRange, units: Decimal): { details: AmountDetails; total: Decimal } {
  const zeroUnits = units.isZero();
  const perUnitTotal = zeroUnits ? ZERO : units.times(range.price);
  const total = perUnitTotal.plus(range.flat);
  const details = {
    from_value: range.fromValue,
    to_value: range.toValue,
    flat_unit_amount: range.flatString,
    per_unit_amount: zeroUnits ? "0.0" : range.priceString,
    units: decimalString(units),
    per_unit_total_amount: decimalString(perUnitTotal),
    total_with_flat_amount: decimalString(total),
  };
  return { details, total };
}

/**
 * graduated: each reached range bills its units at its per-unit price plus its flat amount.
 * Ranges are compiled once; fully consumed ranges are priced at compile time, so pricing
 * only computes the last reached range.
 */
export const graduatedModel: ChargeModel<CompiledGraduated> = {
  compile(properties) {
    const parsed = parseRanges(properties["graduated_ranges"], "per_unit_amount");
    const adjacent = isAdjacentLayout(parsed);
    const ranges = parsed.map((range) => prepare(range, adjacent));
    const fullDetails: (AmountDetails | undefined)[] = [];
    const amountBefore: Decimal[] = [];
    let running = ZERO;
    for (const range of ranges) {
      amountBefore.push(running);
      if (range.to === null) {
        fullDetails.push(undefined);
        continue;
      }
      const full = rangeDetails(range, unitsInRange(range, range.to));
      fullDetails.push(Object.freeze(full.details));
      running = running.plus(full.total);
    }
    return { ranges, fullDetails, amountBefore };
  },

  apply(compiled, input) {
    const { ranges } = compiled;
    if (ranges.length === 0) return { amount: ZERO, unitAmountBase: ZERO, amountDetails: { graduated_ranges: [] } };
    const last = lastReachedIndex(ranges, input.units);
    const range = ranges[last]!;
    const current = rangeDetails(range, unitsInRange(range, input.units));
    const graduated_ranges = compiled.fullDetails.slice(0, last) as AmountDetails[];
    graduated_ranges.push(current.details);
    // Pay-in-advance "before" computation at 0 units: the tier-1 flat fee is not counted.
    const amount = input.excludeEvent && input.units.isZero() ? ZERO : compiled.amountBefore[last]!.plus(current.total);
    return { amount, unitAmountBase: unitAmountBase(input), amountDetails: { graduated_ranges } };
  },
};
