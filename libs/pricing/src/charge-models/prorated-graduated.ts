import { Decimal, ZERO } from "../decimal";
import { type Range, lastReachedIndex, parseRanges } from "./ranges";
import type { ChargeModel } from "./types";

/** Cumulative lower edge of range i: the previous range's to_value (0 for the first). */
function lowerEdge(ranges: readonly Range[], i: number): Decimal {
  return i === 0 ? ZERO : (ranges[i - 1]!.to ?? ZERO);
}

function rangeAbove(ranges: readonly Range[], position: Decimal): number {
  const i = ranges.findIndex((r) => r.to === null || r.to.gt(position));
  return i === -1 ? ranges.length - 1 : i;
}

function rangeBelow(ranges: readonly Range[], position: Decimal): number {
  const i = ranges.findIndex((r) => r.to === null || r.to.gte(position));
  return i === -1 ? ranges.length - 1 : i;
}

/**
 * Prices one event: its full units are laid on the running total and cut at tier edges; each
 * piece is billed at its tier's price in proportion prorated / full (the event's time share).
 */
function priceEvent(ranges: readonly Range[], start: Decimal, full: Decimal, ratio: Decimal): Decimal {
  let amount = ZERO;
  let position = start;
  let remaining = full.abs();
  const up = full.isPositive();
  while (remaining.gt(0)) {
    const i = up ? rangeAbove(ranges, position) : rangeBelow(ranges, position);
    const range = ranges[i]!;
    let piece = remaining;
    if (up && range.to !== null) piece = Decimal.min(remaining, range.to.minus(position));
    if (!up && i > 0) piece = Decimal.min(remaining, position.minus(lowerEdge(ranges, i)));
    if (piece.lte(0)) piece = remaining;
    const value = piece.times(ratio).times(range.price);
    amount = up ? amount.plus(value) : amount.minus(value);
    position = up ? position.plus(piece) : position.minus(piece);
    remaining = remaining.minus(piece);
  }
  return amount;
}

/**
 * graduated on a prorated charge: tiers are decided on the running non-prorated total, each
 * event's prorated share is priced at its tier's per-unit price and every tier reached by the
 * highest running total adds its flat amount in full. Lago shows no amount_details here.
 */
export const proratedGraduatedModel: ChargeModel<Range[]> = {
  compile: (properties) => parseRanges(properties["graduated_ranges"], "per_unit_amount"),

  apply(ranges, input) {
    const full = input.eventValues ?? [];
    const prorated = input.proratedEventValues ?? [];
    let total = ZERO;
    let highest = ZERO;
    let amount = ZERO;
    full.forEach((value, k) => {
      if (value.isZero() || ranges.length === 0) return;
      const ratio = (prorated[k] ?? ZERO).div(value);
      amount = amount.plus(priceEvent(ranges, total, value, ratio));
      total = total.plus(value);
      if (total.gt(highest)) highest = total;
    });
    let result = ZERO;
    if (!total.isNegative() && ranges.length > 0) {
      const last = input.units.isZero() ? 0 : lastReachedIndex(ranges, highest);
      const flats = ranges.slice(0, last + 1).reduce((sum, r) => sum.plus(r.flat), ZERO);
      result = (input.units.isZero() ? ZERO : Decimal.max(amount, ZERO)).plus(flats);
    }
    return { amount: result, unitAmountBase: total, amountDetails: {} };
  },
};
