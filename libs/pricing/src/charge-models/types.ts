import type { Decimal } from "../decimal";

export type { ChargeModelName } from "@billing/codes";

/** What a charge model is applied to: the aggregation of one fee (one filter, one group). */
export interface ChargeModelInput {
  /** Aggregated units after metric rounding (prorated units for a prorated charge). */
  units: Decimal;
  /** Non-prorated unit count of a prorated charge; the unit_amount denominator when set. */
  fullUnitsNumber?: Decimal | undefined;
  /** Number of events aggregated (events_count). */
  eventsCount: number;
  /** Percentage free units: cumulative event values (see aggregations/running-total). */
  runningTotal?: readonly Decimal[] | undefined;
  /** Per-event values in timestamp order (percentage per-transaction min/max, prorated graduated). */
  eventValues?: readonly Decimal[] | undefined;
  /** Prorated per-event values, aligned with eventValues (prorated graduated). */
  proratedEventValues?: readonly Decimal[] | undefined;
  /** Dynamic model: Σ precise_total_amount_cents of the aggregated events. */
  preciseTotalAmountCents?: Decimal | undefined;
  /** Minor units per major unit of the plan currency (dynamic model). */
  subunit: Decimal;
  /** Pay-in-advance "before" computation (the event excluded): tier-1 flat fee is not charged at 0 units. */
  excludeEvent?: boolean | undefined;
  /** Premium features enabled (percentage per-transaction min/max). */
  premium?: boolean | undefined;
  /** The charge is prorated (volume picks its tier on the full unit count). */
  prorated?: boolean | undefined;
}

/** Amount details as in the spec's Fee.amount_details; decimals are strings. */
export type AmountDetails = Record<string, unknown>;

export interface ChargeModelResult {
  /** Amount in major units, unrounded. */
  amount: Decimal;
  /** Denominator of unit_amount = amount / unitAmountBase (0 gives a unit amount of 0). */
  unitAmountBase: Decimal;
  amountDetails: AmountDetails;
}

/** One entry of the strategy table: parse properties once, then price many times. */
export interface ChargeModel<Compiled> {
  compile(properties: Record<string, unknown>): Compiled;
  apply(compiled: Compiled, input: ChargeModelInput): ChargeModelResult;
}
