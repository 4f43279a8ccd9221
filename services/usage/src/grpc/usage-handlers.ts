import type { RpcHandler } from "@billing/grpc";
import { aggregateUsage, type AggregateDeps, type Bucket } from "../aggregate/aggregate-usage";
import type { EventInput } from "../domain/event-input";
import { ingestEvents, type IngestDeps } from "../ingest/ingest-events";
import { toAggregateQuery, type AggregateRequest } from "./aggregate-input";

const bucketMessage = (b: Bucket) => ({ key_json: JSON.stringify(b.key), units: b.result.units.toFixed(), events_count: b.result.eventsCount });

/** IngestEvents and Aggregate: proto ⇄ use case, nothing else. */
export function usageHandlers(deps: { ingest: IngestDeps; aggregate: AggregateDeps }): Record<string, RpcHandler> {
  return {
    IngestEvents: async (request: { organization_id: string; events: EventInput[] }) => ({
      events: await ingestEvents(deps.ingest, request.organization_id, request.events ?? []),
    }),
    Aggregate: async (request: AggregateRequest) => {
      const result = await aggregateUsage(deps.aggregate, toAggregateQuery(request));
      return {
        units: result.total.units,
        events_count: result.total.eventsCount,
        filters: result.filters.map(bucketMessage),
        groups: result.groups.map(bucketMessage),
        ...(result.runningTotals ? { running_totals_json: JSON.stringify(result.runningTotals) } : {}),
      };
    },
  };
}
