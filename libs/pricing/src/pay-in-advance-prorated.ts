import { highWaterStep } from "./aggregations/high-water-mark";
import { paidInAdvanceShare, remainingRatio } from "./aggregations/prorated-in-advance";
import { eventTime } from "./aggregations/values";
import { compiledChargeFor } from "./charge-fee";
import { applyChargeModel } from "./charge-models/factory";
import { currencyInfo } from "./currency";
import { ZERO } from "./decimal";
import type { PayInAdvanceFee, PayInAdvanceInput } from "./pay-in-advance";
import { displayedUnits, inAdvanceAmountFields, markFields } from "./pay-in-advance-details";
import { localDateOf } from "./periods/timezone";

/**
 * The fee of one event on a prorated pay-in-advance charge (billing-rules §1.11: standard model,
 * sum_agg or unique_count_agg, e.g. seats): what the event raises the period's high-water mark
 * by, billed at once for the days from the event's date to the period end (both included, in the
 * customer's zone) over the period length, ceil'ed to 5 decimals. A removal is not refunded (its
 * fee is 0 and the mark keeps its maximum), so the period's usage keeps what was paid
 * (see `paidInAdvanceProratedAggregation`). `units` shows the non-prorated contribution.
 */
export function proratedPayInAdvanceFee(input: PayInAdvanceInput): PayInAdvanceFee {
  const { period } = input;
  if (!period) throw new RangeError("a prorated pay-in-advance fee needs the charges period");
  if (input.charge.charge_model !== "standard") {
    throw new RangeError(`prorated pay-in-advance charges use the standard model, not ${input.charge.charge_model}`);
  }
  const at = eventTime(input.event);
  const upTo = input.periodEvents.filter((e) => e !== input.event && eventTime(e) <= at);
  const mark = highWaterStep(input.metric, input.event, upTo, input.highWaterMark);
  const zone = period.timeZone ?? "UTC";
  const ratio = remainingRatio(localDateOf(at, zone), localDateOf(period.to, zone), period.periodDays);
  const share = paidInAdvanceShare(mark.contribution, ratio);
  const { exponent, subunit } = currencyInfo(input.currency);
  const priced = applyChargeModel(compiledChargeFor(input.charge), {
    units: share,
    fullUnitsNumber: mark.contribution,
    eventsCount: 1,
    subunit,
  });
  const amount = priced.amount.isNegative() ? ZERO : priced.amount;
  return {
    ...inAdvanceAmountFields(amount, displayedUnits(mark), exponent),
    amount_details: {},
    ...markFields(mark),
  };
}
