/**
 * Calendar dates without a time zone, as ISO strings ("2024-03-31"). Arithmetic goes through
 * a day number (days since 1970-01-01), so it is exact and cheap.
 */
export type LocalDate = string;

const DAY_MS = 86_400_000;

export function toDayNumber(date: LocalDate): number {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

export function fromDayNumber(day: number): LocalDate {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function makeDate(year: number, month: number, day: number): LocalDate {
  return fromDayNumber(Math.floor(Date.UTC(year, month - 1, day) / DAY_MS));
}

export function parts(date: LocalDate): { year: number; month: number; day: number } {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) };
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return fromDayNumber(toDayNumber(date) + days);
}

/** b − a in days. */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return toDayNumber(b) - toDayNumber(a);
}

/** Days from a to b, both included. */
export function inclusiveDays(a: LocalDate, b: LocalDate): number {
  return daysBetween(a, b) + 1;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The date `months` later on `day`, clamped to the month's last day (the 31st → Feb 28/29, Apr 30). */
export function monthDay(year: number, month: number, months: number, day: number): LocalDate {
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return makeDate(y, m, Math.min(day, daysInMonth(y, m)));
}

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: LocalDate): number {
  const dow = new Date(toDayNumber(date) * DAY_MS).getUTCDay();
  return dow === 0 ? 7 : dow;
}

export function minDate(a: LocalDate, b: LocalDate): LocalDate {
  return a <= b ? a : b;
}

export function maxDate(a: LocalDate, b: LocalDate): LocalDate {
  return a >= b ? a : b;
}
