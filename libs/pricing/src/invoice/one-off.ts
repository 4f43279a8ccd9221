import { Decimal, type DecimalLike, decimalString, toDecimal } from "../decimal";

export interface OneOffFeeAmount {
  amount_cents: number;
  precise_amount_cents: string;
  /** the unit price in currency units (cents / 100 as Lago shows it, a decimal string) */
  precise_unit_amount_cents: string;
  units: string;
}

/**
 * An add-on fee of a one-off invoice: units × unit amount (cents), rounded half away from zero
 * to whole cents; the precise amount keeps the product. `units` defaults to 1.
 */
export function oneOffFeeAmount(unitAmountCents: DecimalLike, units: DecimalLike | null | undefined): OneOffFeeAmount {
  const unit = toDecimal(unitAmountCents);
  const count = toDecimal(units ?? 1, new Decimal(1));
  const precise = unit.times(count);
  return {
    amount_cents: precise.toDecimalPlaces(0).toNumber(),
    precise_amount_cents: decimalString(precise),
    precise_unit_amount_cents: decimalString(unit),
    units: decimalString(count),
  };
}
