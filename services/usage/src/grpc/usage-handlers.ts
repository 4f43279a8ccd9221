import type { UsageRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import { aggregateUsage, type AggregateDeps } from "../use-cases/aggregate/aggregate-usage";
import { answerHttpIngest, type HttpIngest } from "../use-cases/ingest/http-ingest";
import type { IngestDeps } from "../use-cases/ingest/ingest-events";
import { aggregateReply, toAggregateQuery } from "./aggregate-messages";

type UsageRpcs = Pick<Handlers<UsageRpc>, "IngestHttp" | "Aggregate">;

/**
 * IngestHttp and Aggregate: proto ⇄ use case, nothing else. IngestHttp serves the gateway's
 * POST /events and /events/batch: the bodies as received, each answered in the API's terms.
 */
export function usageHandlers(deps: { ingest: IngestDeps; aggregate: AggregateDeps; logger: Logger }): UsageRpcs {
  return {
    IngestHttp: async (request) => ({
      answers: await Promise.all(
        request.requests.map((r: HttpIngest) => answerHttpIngest(deps.ingest, r, deps.logger)),
      ),
    }),
    Aggregate: async (request) => aggregateReply(await aggregateUsage(deps.aggregate, toAggregateQuery(request))),
  };
}
