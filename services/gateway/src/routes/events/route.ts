import type { IncomingMessage, ServerResponse } from "node:http";
import type { UsageClient } from "../../clients";
import { atFrozenTime } from "@billing/clock";
import type { Logger } from "@billing/logger";
import { errorResponse } from "../../http/error-response";
import { requestIdOf } from "../../http/request-id";
import type { ApiKeyResolver } from "../../middleware/auth";
import type { Metrics } from "../../middleware/metrics";
import { estimateFees } from "../estimate-fees/route";
import { IngestCalls } from "./ingest-calls";
import { byteLimit, readBody } from "./read-body";

export interface EventsRouteDeps {
  usage: UsageClient;
  resolveApiKey: ApiKeyResolver;
  bodyLimit: string;
  logger: Logger;
  /** The gateway's metrics (request count and latency by route). */
  metrics: Metrics;
  /** IngestHttp calls in flight (requests arriving meanwhile share the next call). */
  maxCalls: number;
}

type Kind = "single" | "batch" | "estimate";
const PATHS: Record<string, Kind | undefined> = { "/api/v1/events": "single", "/api/v1/events/batch": "batch", "/api/v1/events/estimate_fees": "estimate" };
/** Request bytes per IngestHttp call: well under gRPC's 16 MB message limit, answers included. */
const MAX_CALL_BYTES = 2 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: Buffer | string): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * POST /api/v1/events, /events/batch and /events/estimate_fees, the hot paths, served ahead of
 * express (same authentication, errors in Lago's bodies, request id, metrics, one log line at debug
 * level; express's per-request machinery costs as much as the rest of an estimate). For events
 * the gateway authenticates and passes the body through, unparsed: the usage service validates it
 * and answers in the API's terms (status and body), and concurrent requests share IngestHttp
 * calls. Returns false for any other request.
 */
export function eventsRoute(deps: EventsRouteDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const limit = byteLimit(deps.bodyLimit);
  const calls = new IngestCalls(deps.usage, { maxCalls: deps.maxCalls, maxBytes: MAX_CALL_BYTES });

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string, requestId: string) => {
    const started = performance.now();
    try {
      const caller = await deps.resolveApiKey(req.headers.authorization, requestId);
      const body = await readBody(req, limit);
      const kind = PATHS[path]!;
      if (kind === "estimate") {
        const estimate = () => estimateFees(deps.usage, caller.organizationId, body, requestId);
        return send(res, 200, await (caller.frozenTime ? atFrozenTime(caller.frozenTime, estimate) : estimate()));
      }
      // requests share IngestHttp calls across organizations: a sandbox one's time travels in its own request
      const frozen = caller.frozenTime ? { frozen_time: caller.frozenTime.toISOString() } : {};
      const answer = await calls.submit({ organization_id: caller.organizationId, batch: kind === "batch", body, ...frozen });
      send(res, answer.status, answer.body);
    } catch (err) {
      const { status, body } = errorResponse(err);
      if (status >= 500) deps.logger.error({ err, request_id: requestId }, "request failed");
      send(res, status, JSON.stringify(body));
    } finally {
      deps.logger.debug({ request_id: requestId, path, status: res.statusCode, ms: Math.round((performance.now() - started) * 100) / 100 }, "request");
    }
  };

  return (req, res) => {
    if (req.method !== "POST") return false;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    if (PATHS[path] === undefined) return false;
    const requestId = requestIdOf(req.headers["x-request-id"]);
    res.setHeader("x-request-id", requestId);
    deps.metrics.track("POST", res, () => path);
    void handle(req, res, path, requestId);
    return true;
  };
}
