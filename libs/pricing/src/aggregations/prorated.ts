import { Decimal, ZERO } from "../decimal";
import { type LocalDate, inclusiveDays, maxDate, minDate } from "../periods/local-date";
import { localDateOf } from "../periods/timezone";
import type { AggregationResult, UsageEvent } from "./types";
import { uniqueTimelines } from "./unique-count";
import { byTimestamp, eventTime, numericValue } from "./values";

/** The charge period a prorated aggregation spreads units over, as local dates of the customer. */
export interface ProrationWindow {
  fromMs: number;
  fromDate: LocalDate;
  toDate: LocalDate;
  /** Full period length in days (the divisor). */
  periodDays: number;
  timeZone: string;
}

function ratio(from: LocalDate, to: LocalDate, window: ProrationWindow): Decimal {
  const days = inclusiveDays(maxDate(from, window.fromDate), minDate(to, window.toDate));
  return days <= 0 ? ZERO : new Decimal(days).div(window.periodDays);
}

/**
 * Prorated sum: each value counts for the days from its event date to the period end (both
 * included) over the period length; values carried from before the period count for the billed
 * days. units is ceil'ed to 5 decimals; fullUnitsNumber is the plain sum.
 */
export function proratedSumAggregation(
  events: readonly UsageEvent[],
  field: string,
  window: ProrationWindow,
): AggregationResult {
  const values: Decimal[] = [];
  const prorated: Decimal[] = [];
  for (const event of byTimestamp(events)) {
    const value = numericValue(event, field);
    if (value === null) continue;
    const t = eventTime(event);
    const start = t < window.fromMs ? window.fromDate : localDateOf(t, window.timeZone);
    values.push(value);
    prorated.push(value.times(ratio(start, window.toDate, window)));
  }
  return prorationResult(
    values,
    prorated,
    values.reduce((s, v) => s.plus(v), ZERO),
  );
}

/**
 * Prorated unique count: each value counts for the days it was active in the period (add day to
 * remove day, both included) over the period length. fullUnitsNumber is the plain unique count.
 * Not replicated: Lago's extra rules for an add/remove/add on one same day.
 */
export function proratedUniqueCountAggregation(
  events: readonly UsageEvent[],
  field: string,
  window: ProrationWindow,
): AggregationResult {
  const entries: { t: number; value: Decimal; prorated: Decimal }[] = [];
  let active = 0;
  for (const timeline of uniqueTimelines(events, field).values()) {
    timeline.forEach(({ op, event }, i) => {
      const t = eventTime(event);
      if (op === "remove") return entries.push({ t, value: new Decimal(-1), prorated: ZERO });
      const next = timeline[i + 1];
      const end = next ? localDateOf(eventTime(next.event), window.timeZone) : window.toDate;
      return entries.push({ t, value: new Decimal(1), prorated: ratio(localDateOf(t, window.timeZone), end, window) });
    });
    if (timeline[timeline.length - 1]?.op === "add") active++;
  }
  entries.sort((a, b) => a.t - b.t);
  return prorationResult(
    entries.map((e) => e.value),
    entries.map((e) => e.prorated),
    new Decimal(active),
  );
}

function prorationResult(values: Decimal[], prorated: Decimal[], full: Decimal): AggregationResult {
  const units = prorated.reduce((s, v) => s.plus(v), ZERO).toDecimalPlaces(5, Decimal.ROUND_CEIL);
  return {
    units,
    eventsCount: values.length,
    fullUnitsNumber: full,
    eventValues: values,
    proratedEventValues: prorated,
  };
}
