import type { IncomingMessage, ServerResponse } from "node:http";
import { atFrozenTime } from "@billing/clock";
import type { Logger } from "@billing/logger";
import type { UsageClient } from "../../clients";
import { sendError, writeJson } from "../../http/error-response";
import type { ApiKeyResolver } from "../../middleware/auth";
import type { Metrics } from "../../middleware/metrics";
import { tooManyRequests, type TokenBuckets } from "../../middleware/rate-limit";
import { assignRequestId, requestLogLine } from "../../middleware/request-context";
import { estimateFees } from "../estimate-fees/route";
import { IngestCalls } from "./ingest-calls";
import { byteLimit, readBody } from "./read-body";

export interface EventsRouteDeps {
  usage: UsageClient;
  resolveApiKey: ApiKeyResolver;
  /** The client's address, by which failed authentications are counted (none counted when absent). */
  addressOf?: (req: IncomingMessage) => string;
  bodyLimit: string;
  logger: Logger;
  /** The gateway's metrics (request count and latency by route). */
  metrics: Metrics;
  /** IngestHttp calls in flight (requests arriving meanwhile share the next call). */
  maxCalls: number;
  /** The organizations' request rate limits: estimates take a token, events do not (they have the usage service's backpressure). */
  limits?: TokenBuckets;
}

type Kind = "single" | "batch" | "estimate";
const PATHS: Record<string, Kind | undefined> = {
  "/api/v1/events": "single",
  "/api/v1/events/batch": "batch",
  "/api/v1/events/estimate_fees": "estimate",
};
/** Request bytes per IngestHttp call: well under gRPC's 16 MB message limit, answers included. */
const MAX_CALL_BYTES = 2 * 1024 * 1024;

/**
 * POST /api/v1/events, /events/batch and /events/estimate_fees, the hot paths, served ahead of
 * express with the gateway's own request pieces: the request id (`assignRequestId`), the metrics
 * (`metrics.track`), the API-key resolver, errors through `sendError`, and one log line (at debug
 * level for a 2xx: express's per-request machinery costs as much as the rest of an estimate; at
 * info, as express logs, for a request answered 4xx or 5xx). For events
 * the gateway authenticates and passes the body through, unparsed: the usage service validates it
 * and answers in the API's terms (status and body), and concurrent requests share IngestHttp
 * calls. Returns false for any other request.
 */
export function eventsRoute(deps: EventsRouteDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const limit = byteLimit(deps.bodyLimit);
  const calls = new IngestCalls(deps.usage, { maxCalls: deps.maxCalls, maxBytes: MAX_CALL_BYTES });

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    kind: Kind,
    requestId: string,
    startedAt: number,
  ) => {
    try {
      const caller = await deps.resolveApiKey(
        req.headers.authorization,
        requestId,
        deps.addressOf ? { address: deps.addressOf(req), res } : undefined,
      );
      const body = await readBody(req, limit);
      if (kind === "estimate") {
        const taken = deps.limits?.take(caller.organizationId, Date.now());
        if (taken && !taken.ok) throw tooManyRequests(res, taken.retryAfterS);
        const estimate = () => estimateFees(deps.usage, caller.organizationId, body, requestId);
        return writeJson(res, 200, await (caller.frozenTime ? atFrozenTime(caller.frozenTime, estimate) : estimate()));
      }
      // requests share IngestHttp calls across organizations: a sandbox one's time travels in its own request
      const frozen = caller.frozenTime ? { frozen_time: caller.frozenTime.toISOString() } : {};
      const answer = await calls.submit({
        organization_id: caller.organizationId,
        batch: kind === "batch",
        body,
        ...frozen,
      });
      writeJson(res, answer.status, answer.body);
    } catch (err) {
      sendError(res, err, deps.logger.child({ request_id: requestId }));
    } finally {
      // a refused or failed request is logged as express logs every request (info), a served one at debug
      const level = res.statusCode >= 400 ? "info" : "debug";
      if (deps.logger.isLevelEnabled(level)) {
        deps.logger[level](
          { request_id: requestId, ...requestLogLine("POST", path, res.statusCode, startedAt) },
          "request",
        );
      }
    }
  };

  return (req, res) => {
    if (req.method !== "POST") return false;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const kind = PATHS[path];
    if (kind === undefined) return false;
    const startedAt = performance.now();
    const requestId = assignRequestId(req, res);
    deps.metrics.track("POST", res, () => path);
    void handle(req, res, path, kind, requestId, startedAt);
    return true;
  };
}
