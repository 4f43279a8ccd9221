import type { UsageEvent } from "./aggregations/types";

/** Every value allowed on the metric filter of that key. */
export const ALL_FILTER_VALUES = "__ALL_FILTER_VALUES__";

/** A filter declared on a billable metric: a key and its allowed values. */
export interface MetricFilter {
  key: string;
  values: string[];
}

/** A charge filter: key → accepted values, with its own properties (spec: Charge.filters). */
export interface ChargeFilter {
  values: Record<string, string[]>;
  properties?: Record<string, unknown>;
  invoice_display_name?: string | null;
  /** Creation order breaks ties between identical filters (oldest wins); default = list order. */
  created_at?: Date | string | null;
}

type Resolved = Map<string, Set<string>>;

function resolve(filter: ChargeFilter, metricFilters: readonly MetricFilter[] | undefined): Resolved {
  const resolved: Resolved = new Map();
  for (const [key, values] of Object.entries(filter.values)) {
    const all = values.includes(ALL_FILTER_VALUES);
    const allowed = metricFilters?.find((f) => f.key === key)?.values;
    resolved.set(key, all ? new Set(allowed ?? [ALL_FILTER_VALUES]) : new Set(values));
  }
  return resolved;
}

function matchesResolved(event: UsageEvent, filter: Resolved): boolean {
  for (const [key, values] of filter) {
    const raw = event.properties?.[key];
    if (raw === undefined || raw === null) return false;
    if (!values.has(ALL_FILTER_VALUES) && !values.has(String(raw))) return false;
  }
  return true;
}

/** An event matches a filter when, for every key of the filter, its property value is accepted. */
export function eventMatchesFilter(
  event: UsageEvent,
  filter: ChargeFilter,
  metricFilters?: readonly MetricFilter[],
): boolean {
  return matchesResolved(event, resolve(filter, metricFilters));
}

const overlaps = (a: Set<string>, b: Set<string>) =>
  [...a].some((v) => b.has(v) || b.has(ALL_FILTER_VALUES) || v === ALL_FILTER_VALUES);
const subset = (a: Set<string>, b: Set<string>) => [...a].every((v) => b.has(v));

/**
 * g is more specific than f: it has every key of f with overlapping values and more keys, or the
 * same keys with a strict subset of values. Identical filters: the older one (gOlder) wins.
 */
function moreSpecific(g: Resolved, f: Resolved, gOlder: boolean): boolean {
  for (const [key, values] of f) {
    const other = g.get(key);
    if (!other || !overlaps(other, values)) return false;
  }
  if (g.size > f.size) return true;
  const allSubset = [...f].every(([key, values]) => subset(g.get(key)!, values));
  if (!allSubset) return false;
  const identical = [...f].every(([key, values]) => subset(values, g.get(key)!));
  return identical ? gOlder : true;
}

function olderThan(a: ChargeFilter, ai: number, b: ChargeFilter, bi: number): boolean {
  if (a.created_at && b.created_at) {
    const [ta, tb] = [new Date(a.created_at).getTime(), new Date(b.created_at).getTime()];
    if (ta !== tb) return ta < tb;
  }
  return ai < bi;
}

/**
 * Splits events into one bucket per filter plus the "no filter matched" bucket (arrears).
 * A filter's bucket skips events that match a more specific filter; filters on disjoint keys
 * are unrelated, so an event matching both is counted in both.
 */
export function bucketEventsByFilter<E extends UsageEvent>(
  events: readonly E[],
  filters: readonly ChargeFilter[],
  metricFilters?: readonly MetricFilter[],
): { byFilter: E[][]; unmatched: E[] } {
  const resolved = filters.map((f) => resolve(f, metricFilters));
  const ignored = resolved.map((f, i) =>
    resolved.filter((g, j) => j !== i && moreSpecific(g, f, olderThan(filters[j]!, j, filters[i]!, i))),
  );
  const byFilter: E[][] = filters.map(() => []);
  const unmatched: E[] = [];
  for (const event of events) {
    let matchedAny = false;
    resolved.forEach((filter, i) => {
      if (!matchesResolved(event, filter)) return;
      matchedAny = true;
      if (!ignored[i]!.some((g) => matchesResolved(event, g))) byFilter[i]!.push(event);
    });
    if (!matchedAny) unmatched.push(event);
  }
  return { byFilter, unmatched };
}

/** Pay in advance: the single matching filter with the most keys (first in order on ties), or null. */
export function payInAdvanceFilterIndex(
  event: UsageEvent,
  filters: readonly ChargeFilter[],
  metricFilters?: readonly MetricFilter[],
): number | null {
  let best: number | null = null;
  filters.forEach((filter, i) => {
    if (!eventMatchesFilter(event, filter, metricFilters)) return;
    if (best === null || Object.keys(filter.values).length > Object.keys(filters[best]!.values).length) best = i;
  });
  return best;
}
