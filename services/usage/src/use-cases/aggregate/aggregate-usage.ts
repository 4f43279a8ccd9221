import {
  aggregate,
  bucketEventsByFilter,
  groupEvents,
  type AggregationResult,
  type BillableMetric,
  type ChargeFilter,
  type GroupedBy,
  type MetricFilter,
  type UsageEvent,
} from "@billing/pricing";
import { AppError } from "@billing/errors";
import type { CatalogCopies } from "../../domain/read-copies";
import type { UsageReader } from "../../domain/usage-event";
import type { UsageCollections } from "../../persistence/collections";
import { FAST_AGGREGATIONS, fastAggregate } from "./fast-path";

export interface AggregateQuery {
  organizationId: string;
  externalSubscriptionId: string;
  code: string;
  from: Date;
  to: Date;
  filters: ChargeFilter[];
  groupedBy: string[];
  withRunningTotals: boolean;
}

export interface AggregateDeps {
  collections: UsageCollections;
  reader: UsageReader;
  copies: CatalogCopies;
}

/** The aggregation of one bucket: a filter's (its values; none for the events matching no filter) or a group's (its key → value). */
export interface Bucket<K> {
  key: K;
  result: AggregationResult;
}

export interface Aggregated {
  total: { units: string; eventsCount: number };
  filters: Bucket<Record<string, string[]>>[];
  groups: Bucket<GroupedBy>[];
  runningTotals: string[] | null;
}

const DAY_MS = 86_400_000;

/**
 * Usage of one subscription (external id) and metric over [from, to): from the buckets' partials
 * for count/sum/max without filters or groups, otherwise from the period's events through the
 * pricing library's aggregations (the only place aggregation math lives).
 */
export async function aggregateUsage(deps: AggregateDeps, q: AggregateQuery): Promise<Aggregated> {
  const copy = deps.copies.metricByCode(q.organizationId, q.code);
  if (!copy) throw AppError.notFound("billable_metric");
  const metric = copy as unknown as BillableMetric;
  const [fromMs, toMs] = [q.from.getTime(), q.to.getTime()];
  if (!(fromMs < toMs)) throw AppError.validation({ to: ["value_is_invalid"] });
  const series = { org: q.organizationId, sub: q.externalSubscriptionId, code: q.code };

  if (
    FAST_AGGREGATIONS.has(metric.aggregation_type) &&
    q.filters.length === 0 &&
    q.groupedBy.length === 0 &&
    !q.withRunningTotals
  ) {
    const fast = await fastAggregate(deps.collections, metric, series, fromMs, toMs);
    return {
      total: { units: fast.units.toFixed(), eventsCount: fast.eventsCount },
      filters: [],
      groups: [],
      runningTotals: null,
    };
  }

  const events: UsageEvent[] = await deps.reader.events(q);
  const options = { from: q.from, to: new Date(toMs - 1), periodDays: (toMs - fromMs) / DAY_MS };
  const run = (bucket: readonly UsageEvent[]) => {
    try {
      return aggregate(metric, bucket, options);
    } catch (err) {
      if (err instanceof RangeError)
        throw new AppError("failed_precondition", "unsupported_aggregation", {
          aggregation_type: [metric.aggregation_type],
        });
      throw err;
    }
  };
  const total = run(events);
  const filters: Aggregated["filters"] = [];
  if (q.filters.length > 0) {
    const { byFilter, unmatched } = bucketEventsByFilter(events, q.filters, copy.filters as MetricFilter[]);
    q.filters.forEach((f, i) => filters.push({ key: f.values, result: run(byFilter[i]!) }));
    filters.push({ key: {}, result: run(unmatched) });
  }
  const groups =
    q.groupedBy.length > 0
      ? groupEvents(events, q.groupedBy).map((g) => ({ key: g.groupedBy, result: run(g.events) }))
      : [];
  let runningTotals: string[] | null = null;
  if (q.withRunningTotals) {
    const all = aggregate(metric, events, {
      ...options,
      freeUnits: { free_units_per_events: Math.max(1, events.length) },
    });
    runningTotals = (all.runningTotal ?? []).map((d) => d.toFixed());
  }
  return { total: { units: total.units.toFixed(), eventsCount: total.eventsCount }, filters, groups, runningTotals };
}
