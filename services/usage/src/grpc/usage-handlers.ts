import { AppError, type ErrorDetails } from "@billing/errors";
import type { RpcHandler } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { aggregateUsage, type AggregateDeps, type Bucket } from "../aggregate/aggregate-usage";
import { checkEventInput, type EventInput } from "../domain/event-input";
import type { ValidEvent } from "../domain/event-validation";
import { answerHttpIngest, type HttpIngest } from "../ingest/http-ingest";
import { ingestEvents, type IngestDeps } from "../ingest/ingest-events";
import { toAggregateQuery, type AggregateRequest } from "./aggregate-input";

const bucketMessage = (b: Bucket) => ({ key_json: JSON.stringify(b.key), units: b.result.units.toFixed(), events_count: b.result.eventsCount });

/** IngestEvents' EventInput messages → the events ingestion takes (422 by index when one is not valid). */
function checkedInputs(inputs: readonly EventInput[]): ValidEvent[] {
  const details: ErrorDetails = {};
  const events: ValidEvent[] = [];
  inputs.forEach((input, i) => {
    const checked = checkEventInput(input);
    if ("errors" in checked) details[i] = checked.errors;
    else events.push(checked.event);
  });
  if (Object.keys(details).length > 0) throw AppError.validation(details);
  return events;
}

/** IngestHttp, IngestEvents and Aggregate: proto ⇄ use case, nothing else. */
export function usageHandlers(deps: { ingest: IngestDeps; aggregate: AggregateDeps; logger: Logger }): Record<string, RpcHandler> {
  return {
    IngestHttp: async (request: { requests?: HttpIngest[] }) => ({
      answers: await Promise.all((request.requests ?? []).map((r) => answerHttpIngest(deps.ingest, r, deps.logger))),
    }),
    IngestEvents: async (request: { organization_id: string; events?: EventInput[] }) => {
      const { lines } = await ingestEvents(deps.ingest, request.organization_id, checkedInputs(request.events ?? []));
      return {
        events: lines.map((l) => ({
          svc_id: l.svcId,
          transaction_id: l.transactionId,
          external_subscription_id: l.externalSubscriptionId,
          code: l.code,
          timestamp: l.timestamp,
          properties_json: l.propertiesJson ?? "{}",
          ...(l.preciseTotalAmountCents !== null ? { precise_total_amount_cents: l.preciseTotalAmountCents } : {}),
          created_at: l.createdAt,
        })),
      };
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
