import { Decimal } from "./decimal";
import type { RoundingFunction } from "./aggregations/types";

/**
 * Metric rounding (rounding_function / rounding_precision): round is half away from zero,
 * ceil and floor go toward ±∞, at `precision` decimals (null = 0; negative rounds to tens,
 * hundreds…: 123.456 ceil −2 = 200). No function = the value unchanged.
 */
export function applyMetricRounding(
  value: Decimal,
  roundingFunction: RoundingFunction | null | undefined,
  precision: number | null | undefined,
): Decimal {
  if (!roundingFunction) return value;
  const places = precision ?? 0;
  const mode = { round: Decimal.ROUND_HALF_UP, ceil: Decimal.ROUND_CEIL, floor: Decimal.ROUND_FLOOR }[roundingFunction];
  if (places >= 0) return value.toDecimalPlaces(places, mode);
  const factor = new Decimal(10).pow(-places);
  return value.div(factor).toDecimalPlaces(0, mode).times(factor);
}
