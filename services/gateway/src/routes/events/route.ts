import express, { Router, type Request, type Response } from "express";
import { AppError, type ErrorDetails } from "@billing/errors";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { wrapped } from "../../http/validation";
import { eventResponse, eventsResponse, type IngestedEvent } from "./presenter";
import { SingleEventBatcher } from "./single-event-batcher";
import { toIngestRequest } from "./to-message";
import { validateEvent, type ValidEvent } from "./validators";

/** Lago's LAGO_EVENTS_BATCH_MAX_LENGTH. */
export const MAX_BATCH = 100;

/**
 * NUL characters are refused in the raw body (a JSON string can only carry one escaped), which
 * spares the per-value reviver of the API's general body parser on this hot path.
 */
function eventsBodyParser(limit: string) {
  return express.json({
    limit,
    type: () => true,
    verify: (_req, _res, buf) => {
      if (buf.includes("\\u0000")) throw Object.assign(new SyntaxError("NUL character in JSON string"), { type: "entity.parse.failed", status: 400 });
    },
  });
}

const sendJson = (res: Response, text: string) => void res.type("application/json").send(text);

/** POST /api/v1/events and /events/batch: one IngestEvents call per request, nothing per event. */
export function eventsRouter(usage: RpcClient, bodyLimit: string): Router {
  const router = Router();
  const parse = eventsBodyParser(bodyLimit);
  const singles = new SingleEventBatcher(usage);

  router.post("/events", parse, async (req: Request, res: Response) => {
    const checked = validateEvent(wrapped(req, "event"));
    if ("errors" in checked) throw AppError.validation(checked.errors);
    sendJson(res, eventResponse(await singles.submit(organizationId(req), checked.event), checked.event));
  });

  router.post("/events/batch", parse, async (req: Request, res: Response) => {
    const list = (req.body as { events?: unknown } | undefined)?.events;
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
    const reply = await usage.call<{ events: IngestedEvent[] }>("IngestEvents", toIngestRequest(organizationId(req), events), {
      requestId: ctx(req).requestId,
    });
    sendJson(res, eventsResponse(reply.events, events));
  });

  return router;
}
