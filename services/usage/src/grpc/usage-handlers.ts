import { AppError } from "@billing/errors";
import type { RpcHandler } from "@billing/grpc";
import { aggregateUsage, type AggregateDeps, type Bucket } from "../aggregate/aggregate-usage";
import type { EventInput } from "../domain/event-input";
import { compactReply, fullReply, ingestEvents, type IngestDeps } from "../ingest/ingest-events";
import { toAggregateQuery, type AggregateRequest } from "./aggregate-input";

const bucketMessage = (b: Bucket) => ({ key_json: JSON.stringify(b.key), units: b.result.units.toFixed(), events_count: b.result.eventsCount });

/** IngestEventsRequest.events_json: a JSON array of EventInput objects (their fields are checked by ingestEvents). */
function parseEventsJson(text: string): EventInput[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw AppError.badRequest("events_json is not JSON");
  }
  if (!Array.isArray(parsed) || !parsed.every((e) => e !== null && typeof e === "object" && !Array.isArray(e))) {
    throw AppError.badRequest("events_json is not an array of events");
  }
  return parsed as EventInput[];
}

/** IngestEvents and Aggregate: proto ⇄ use case, nothing else. */
export function usageHandlers(deps: { ingest: IngestDeps; aggregate: AggregateDeps }): Record<string, RpcHandler> {
  return {
    IngestEvents: async (request: { organization_id: string; events: EventInput[]; compact_reply?: boolean; events_json?: string }) => {
      const events = request.events_json ? parseEventsJson(request.events_json) : request.events ?? [];
      const result = await ingestEvents(deps.ingest, request.organization_id, events);
      return request.compact_reply ? compactReply(result) : { events: fullReply(result) };
    },
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
