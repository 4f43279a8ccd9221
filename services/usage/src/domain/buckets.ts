/**
 * Hourly buckets of one subscription (external id) and metric code. Ids are JSON arrays so that
 * no separator can be forged from inside an id.
 */
export const HOUR_MS = 3_600_000;

export const hourOf = (timestampMs: number) => Math.floor(timestampMs / HOUR_MS) * HOUR_MS;

/** One series: an organization's subscription (external id) and metric code. */
export interface SeriesKey {
  org: string;
  sub: string;
  code: string;
}

export const seriesId = (s: SeriesKey) => JSON.stringify([s.org, s.sub, s.code]);

export const bucketId = (s: SeriesKey, hourMs: number) => JSON.stringify([s.org, s.sub, s.code, hourMs]);

/** A page holds the events of one bucket from the ingest messages firstSeq..lastSeq. */
export const pageId = (bucket: string, firstSeq: number, lastSeq: number) => `${bucket}|${firstSeq}-${lastSeq}`;

/** How an hour stands to [fromMs, toMs): wholly inside, partly (an edge), or outside. */
export function hourCoverage(hourMs: number, fromMs: number, toMs: number): "whole" | "edge" | "outside" {
  if (hourMs + HOUR_MS <= fromMs || hourMs >= toMs) return "outside";
  return hourMs >= fromMs && hourMs + HOUR_MS <= toMs ? "whole" : "edge";
}
