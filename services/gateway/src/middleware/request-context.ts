import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { Logger } from "@billing/logger";
import { tagServerSpan, withRequestId } from "@billing/telemetry";
import { setCtx } from "../http/context";

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the caller's X-Request-Id when it is sane, a new UUID otherwise. It is echoed
 * in the response's X-Request-Id, travels to the services in gRPC metadata and, tracing on, is
 * set on the request's HTTP server span. Called by the express middleware below and by the
 * events fast path.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers["x-request-id"];
  const requestId = typeof given === "string" && SANE_ID.test(given) ? given : randomUUID();
  res.setHeader("x-request-id", requestId);
  tagServerSpan(req, requestId);
  return requestId;
}

/** The fields of a request's one log line ("request"), `startedAt` from `performance.now()`. */
export function requestLogLine(method: string, path: string, status: number, startedAt: number) {
  return { method, path, status, ms: Math.round((performance.now() - startedAt) * 100) / 100 };
}

/** Express: gives each request its id and a logger bound to it, and logs one line when it ends. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    const requestId = assignRequestId(req, res);
    const log = logger.child({ request_id: requestId });
    setCtx(req, { requestId, logger: log });
    res.on("finish", () => log.info(requestLogLine(req.method, req.path, res.statusCode, startedAt), "request"));
    // tracing on: the spans of the rest of the request (and the services it calls) carry its id
    withRequestId(requestId, next);
  };
}
