import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, RequestHandler } from "express";
import { AppError, toHttpError, type ErrorDetails } from "@billing/errors";
import type { RpcClient } from "@billing/grpc";
import type { Logger } from "@billing/logger";
import type { ApiKeyResolver } from "../../middleware/auth";
import { eventResponse, eventsResponse, type IngestReply } from "./presenter";
import { byteLimit, HttpStatus, readJson } from "./read-json";
import { SingleEventBatcher } from "./single-event-batcher";
import { toIngestRequest } from "./to-message";
import { validateEvent, type ValidEvent } from "./validators";

/** Lago's LAGO_EVENTS_BATCH_MAX_LENGTH. */
export const MAX_BATCH = 100;

export interface EventsRouteDeps {
  usage: RpcClient;
  resolveApiKey: ApiKeyResolver;
  bodyLimit: string;
  logger: Logger;
  /** The gateway's metrics middleware (request count and latency by route). */
  metrics: RequestHandler;
}

function wrappedEvent(body: unknown): unknown {
  const event = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>).event : undefined;
  if (!event || typeof event !== "object" || Array.isArray(event)) throw AppError.badRequest("param is missing or the value is empty: event");
  return event;
}

function batchEvents(body: unknown): ValidEvent[] {
  const list = (body as { events?: unknown } | undefined)?.events;
  if (!Array.isArray(list) || list.length === 0) throw AppError.badRequest("param is missing or the value is empty: events");
  if (list.length > MAX_BATCH) throw AppError.validation({ events: ["too_many_events"] });
  const events: ValidEvent[] = new Array(list.length);
  const details: ErrorDetails = {};
  let invalid = false;
  for (let i = 0; i < list.length; i++) {
    const checked = validateEvent(list[i]);
    if ("errors" in checked) (details[i] = checked.errors), (invalid = true);
    else events[i] = checked.event;
  }
  if (invalid) throw AppError.validation(details);
  return events;
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * POST /api/v1/events and /events/batch, the ingestion hot path: served ahead of express's
 * per-request machinery (same authentication, errors in Lago's bodies, request id, metrics, one
 * log line at debug level), one IngestEvents call per request — single events of one organization
 * share calls — and nothing per event beyond validation.
 */
export function eventsRoute(deps: EventsRouteDeps): RequestHandler {
  const limit = byteLimit(deps.bodyLimit);
  const singles = new SingleEventBatcher(deps.usage);
  const PATHS: Record<string, string> = { "/api/v1/events": "single", "/api/v1/events/batch": "batch" };

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string, requestId: string) => {
    const started = performance.now();
    try {
      const organizationId = await deps.resolveApiKey(req.headers.authorization, requestId);
      const body = await readJson(req, limit);
      if (PATHS[path] === "single") {
        const checked = validateEvent(wrappedEvent(body));
        if ("errors" in checked) throw AppError.validation(checked.errors);
        send(res, 200, eventResponse(await singles.submit(organizationId, checked.event), checked.event));
      } else {
        const events = batchEvents(body);
        const reply = await deps.usage.call<IngestReply>("IngestEvents", toIngestRequest(organizationId, events), { requestId });
        send(res, 200, eventsResponse(reply, events));
      }
    } catch (err) {
      if (err instanceof HttpStatus) return send(res, err.status, JSON.stringify({ status: err.status, error: err.text }));
      const { status, body } = toHttpError(err);
      if (status >= 500) deps.logger.error({ err, request_id: requestId }, "request failed");
      send(res, status, JSON.stringify(body));
    } finally {
      deps.logger.debug({ request_id: requestId, path, status: res.statusCode, ms: Math.round((performance.now() - started) * 100) / 100 }, "request");
    }
  };

  return (req, res, next: NextFunction) => {
    const path = req.url.split("?", 1)[0]!;
    if (req.method !== "POST" || !PATHS[path]) return next();
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    res.setHeader("x-request-id", requestId);
    (req as IncomingMessage & { route?: unknown }).route = { path };
    deps.metrics(req, res, () => undefined);
    void handle(req, res, path, requestId);
  };
}
