import { AppError, toHttpError, type ErrorDetails } from "@billing/errors";
import { atFrozenTime } from "@billing/clock";
import type { UsageMessages } from "@billing/contracts";
import type { Logger } from "@billing/logger";
import { validateEvent, type ValidEvent } from "../../domain/event-validation";
import { eventsIngested, eventsRefused } from "../../metrics";
import { ingestEvents, type IngestDeps } from "./ingest-events";

/** Lago's LAGO_EVENTS_BATCH_MAX_LENGTH. */
export const MAX_BATCH = 100;

/** IngestHttp's HttpIngest: a POST /events or /events/batch body, as received. */
export type HttpIngest = UsageMessages.HttpIngest__Output;
/** The answer to one of them, in the API's terms. */
export type HttpAnswer = UsageMessages.HttpAnswer__Output;

/** A JSON string can only carry a NUL escaped; Lago answers it 400, as invalid JSON. */
const ESCAPED_NUL = Buffer.from("\\u0000");

function parseBody(body: Buffer): unknown {
  if (body.includes(ESCAPED_NUL)) throw new AppError("bad_request");
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new AppError("bad_request");
  }
}

const member = (body: unknown, key: string): unknown =>
  body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>)[key] : undefined;

function singleEvent(body: unknown): ValidEvent[] {
  const event = member(body, "event");
  if (!event || typeof event !== "object" || Array.isArray(event))
    throw AppError.badRequest("param is missing or the value is empty: event");
  const checked = validateEvent(event);
  if ("errors" in checked) throw AppError.validation(checked.errors);
  return [checked.event];
}

function batchEvents(body: unknown): ValidEvent[] {
  const list = member(body, "events");
  if (!Array.isArray(list) || list.length === 0)
    throw AppError.badRequest("param is missing or the value is empty: events");
  if (list.length > MAX_BATCH) throw AppError.validation({ events: ["too_many_events"] });
  const events: ValidEvent[] = new Array(list.length);
  let details: ErrorDetails | null = null;
  for (let i = 0; i < list.length; i++) {
    const checked = validateEvent(list[i]);
    if ("errors" in checked) (details ??= {})[i] = checked.errors;
    else events[i] = checked.event;
  }
  if (details) throw AppError.validation(details);
  return events;
}

/** A request body → its events, validated (400 for a body that is not what the endpoint takes, 422 by field). */
export function bodyEvents(request: Pick<HttpIngest, "batch" | "body">): ValidEvent[] {
  const body = parseBody(request.body);
  return request.batch ? batchEvents(body) : singleEvent(body);
}

/** POST /events names a refused event's fields directly, not by index as in a batch. */
function unindexed(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  const first = err.details?.["0"];
  if (!first || typeof first !== "object" || Array.isArray(first)) return err;
  return new AppError(err.kind, err.code, first as ErrorDetails, err.message);
}

/**
 * One POST /events or /events/batch, answered as the API answers: `{"event": …}` or
 * `{"events": [...]}` from the stored events' texts (nothing serialized again), or Lago's error body.
 */
export async function answerHttpIngest(deps: IngestDeps, request: HttpIngest, logger: Logger): Promise<HttpAnswer> {
  let count = 0; // the request's events, once its body is read
  try {
    // a sandbox organization's request runs at its test clock's time (events without a timestamp get it)
    const ingest = () => {
      const events = bodyEvents(request);
      count = events.length;
      return ingestEvents(deps, request.organization_id, events);
    };
    const { texts } = await (request.frozen_time ? atFrozenTime(new Date(request.frozen_time), ingest) : ingest());
    eventsIngested.inc(texts.length);
    return {
      status: 200,
      body: Buffer.from(request.batch ? `{"events":[${texts.join(",")}]}` : `{"event":${texts[0]}}`),
    };
  } catch (err) {
    const { status, body } = toHttpError(request.batch ? err : unindexed(err));
    eventsRefused.inc({ status: String(status) }, Math.max(count, 1));
    if (status >= 500) logger.error({ err, organization_id: request.organization_id }, "ingest request failed");
    return { status, body: Buffer.from(JSON.stringify(body)) };
  }
}
