import type { UsageRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { aggregateUsage, type AggregateDeps } from "../use-cases/aggregate/aggregate-usage";
import { answerHttpIngest, type HttpIngest } from "../use-cases/ingest/http-ingest";
import { ingestEvents, type IngestDeps } from "../use-cases/ingest/ingest-events";
import { aggregateReply, toAggregateQuery } from "./aggregate-messages";
import { checkedInputs, ingestedEventMessage } from "./ingest-messages";

type UsageRpcs = Pick<Handlers<UsageRpc>, "IngestHttp" | "IngestEvents" | "Aggregate">;

/**
 * IngestHttp, IngestEvents and Aggregate: proto ⇄ use case, nothing else. IngestHttp serves the
 * gateway's POST /events and /events/batch; IngestEvents is the same ingestion as proto messages
 * for internal callers (the integration tests drive ingestion through it), on the same code.
 */
export function usageHandlers(deps: { ingest: IngestDeps; aggregate: AggregateDeps; logger: Logger }): UsageRpcs {
  return {
    IngestHttp: async (request) => ({
      answers: await Promise.all(request.requests.map((r: HttpIngest) => answerHttpIngest(deps.ingest, r, deps.logger))),
    }),
    IngestEvents: async (request) => {
      const { lines } = await ingestEvents(deps.ingest, request.organization_id, checkedInputs(request.events ?? []));
      return { events: lines.map(ingestedEventMessage) };
    },
    Aggregate: async (request) => aggregateReply(await aggregateUsage(deps.aggregate, toAggregateQuery(request))),
  };
}
