import { type LocalDate, addDays, parts } from "./local-date";

/** An instant as accepted by the library: a Date, an ISO 8601 string or epoch milliseconds. */
export type Instant = Date | string | number;

export function instantMs(value: Instant): number {
  if (typeof value === "number") return value;
  if (value instanceof Date) return value.getTime();
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`invalid timestamp: ${value}`);
  return ms;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function wallClock(ms: number, timeZone: string): number {
  const values: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  return Date.UTC(
    values["year"]!,
    values["month"]! - 1,
    values["day"]!,
    values["hour"]!,
    values["minute"]!,
    values["second"]!,
  );
}

/** UTC offset of `timeZone` at an instant, in milliseconds (UTC+2 → 7_200_000). */
export function utcOffsetMs(ms: number, timeZone: string): number {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return 0; // the common case, without Intl's cost
  const whole = Math.floor(ms / 1000) * 1000;
  return wallClock(whole, timeZone) - whole;
}

/** The calendar date of an instant in a time zone. */
export function localDateOf(instant: Instant, timeZone = "UTC"): LocalDate {
  const ms = instantMs(instant);
  return new Date(ms + utcOffsetMs(ms, timeZone)).toISOString().slice(0, 10);
}

/** The instant a local wall-clock time happens (the later offset wins in a DST gap). */
function localToInstant(wallMs: number, timeZone: string): number {
  let guess = wallMs - utcOffsetMs(wallMs, timeZone);
  const offset = utcOffsetMs(guess, timeZone);
  guess = wallMs - offset;
  return guess;
}

/** 00:00:00.000 of a local date, as a UTC Date. */
export function startOfLocalDay(date: LocalDate, timeZone = "UTC"): Date {
  const { year, month, day } = parts(date);
  return new Date(localToInstant(Date.UTC(year, month - 1, day), timeZone));
}

/** 23:59:59.999 of a local date (the instant before the next day starts), as a UTC Date. */
export function endOfLocalDay(date: LocalDate, timeZone = "UTC"): Date {
  return new Date(startOfLocalDay(addDays(date, 1), timeZone).getTime() - 1);
}
