import { type Instant, instantMs, localDateOf, startOfLocalDay, utcOffsetMs } from "./timezone";

const DAY_MS = 86_400_000;

/**
 * Whole days between two instants in a time zone (Lago's date_diff_with_timezone):
 * ceil((to − from − DST offset change) / 1 day), a `to` exactly at local midnight pushed by 1 s,
 * so a termination at 00:00 still bills that day.
 */
export function dateDiffWithTimezone(from: Instant, to: Instant, timezone = "UTC"): number {
  const fromMs = instantMs(from);
  let toMs = instantMs(to);
  if (startOfLocalDay(localDateOf(toMs, timezone), timezone).getTime() === toMs) toMs += 1000;
  const offsetChange = utcOffsetMs(fromMs, timezone) - utcOffsetMs(toMs, timezone);
  return Math.ceil((toMs - fromMs - offsetChange) / DAY_MS);
}
