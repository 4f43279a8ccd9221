/**
 * Hourly buckets of one subscription (external id) and metric code. Ids are JSON arrays so that
 * no separator can be forged from inside an id.
 */
export const HOUR_MS = 3_600_000;

export const hourOf = (timestampMs: number) => Math.floor(timestampMs / HOUR_MS) * HOUR_MS;

/** The UTC month an instant falls in (its first millisecond). */
export function monthOf(timestampMs: number): number {
  const d = new Date(timestampMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The months that [fromMs, toMs) touches. */
export function monthsOf(fromMs: number, toMs: number): number[] {
  const months: number[] = [];
  for (let m = monthOf(fromMs); m < toMs; m = Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1))
    months.push(m);
  return months;
}

/** One series: an organization's subscription (external id) and metric code. */
export interface SeriesKey {
  org: string;
  sub: string;
  code: string;
}

/** The hours of one series that have a bucket are listed per month (a bounded document). */
export const seriesMonthId = (s: SeriesKey, monthMs: number) =>
  JSON.stringify([s.org, s.sub, s.code, "month", monthMs]);

export const bucketId = (s: SeriesKey, hourMs: number) => JSON.stringify([s.org, s.sub, s.code, hourMs]);

/** A page holds the events of one bucket from the ingest messages firstSeq..lastSeq. */
export const pageId = (bucket: string, firstSeq: number, lastSeq: number) => `${bucket}|${firstSeq}-${lastSeq}`;

/** How an hour stands to [fromMs, toMs): wholly inside, partly (an edge), or outside. */
export function hourCoverage(hourMs: number, fromMs: number, toMs: number): "whole" | "edge" | "outside" {
  if (hourMs + HOUR_MS <= fromMs || hourMs >= toMs) return "outside";
  return hourMs >= fromMs && hourMs + HOUR_MS <= toMs ? "whole" : "edge";
}
