import type { ServerResponse } from "node:http";
import { AppError, toHttpError, type HttpErrorBody } from "@billing/errors";
import type { Logger } from "@billing/logger";

/** An HTTP error that is not one of Lago's AppErrors (a body over the limit, an aborted upload). */
export class HttpStatus extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text);
  }
}

const MAX_PATH_IN_MESSAGE = 256;

/**
 * A request that no route serves: 404 `route_not_found`, its method and path in `message`, so a
 * client tells "not implemented" from a missing record (`<resource>_not_found`).
 */
export class RouteNotFound extends Error {
  readonly code = "route_not_found";
  constructor(method: string, path: string) {
    super(
      `No route matches ${method} ${path.length > MAX_PATH_IN_MESSAGE ? `${path.slice(0, MAX_PATH_IN_MESSAGE)}…` : path}`,
    );
  }
}

/**
 * The router's failure to decode a path parameter (`%ff`, `%E0%A4%A`: not UTF-8 percent-encoding),
 * which it marks 400: Lago's bad request, on every route.
 */
function fromRouter(err: unknown): AppError | undefined {
  return err instanceof URIError && (err as URIError & { status?: number }).status === 400
    ? AppError.badRequest("malformed percent-encoding in the URL path")
    : undefined;
}

/** Body-parser failures in Lago's words. */
function fromBodyParser(err: { type?: string }): AppError | HttpStatus | undefined {
  switch (err.type) {
    case "entity.parse.failed":
      return new AppError("bad_request"); // {"status":400,"error":"Bad Request"}, as Lago's exception app answers
    case "entity.too.large":
      return new HttpStatus(413, "Payload Too Large");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new HttpStatus(415, "Unsupported Media Type");
    case "request.aborted":
      return new HttpStatus(400, "Bad Request");
    default:
      return undefined;
  }
}

/**
 * Any error → the HTTP status and Lago body the client gets (`libs/errors`' table for AppErrors;
 * an unknown route; the router's and body-parser's failures). No internal text reaches the
 * client: an unknown error is a bare 500.
 */
export function errorResponse(err: unknown): { status: number; body: HttpErrorBody & { message?: string } } {
  if (err instanceof RouteNotFound)
    return { status: 404, body: { status: 404, error: "Not Found", code: err.code, message: err.message } };
  const known =
    err instanceof HttpStatus || err instanceof AppError
      ? err
      : fromRouter(err) || (err && typeof err === "object" && fromBodyParser(err)) || err;
  if (known instanceof HttpStatus) return { status: known.status, body: { status: known.status, error: known.text } };
  return toHttpError(known);
}

/** A JSON answer written straight to node's response (no framework: the fast path uses it too). */
export function writeJson(res: ServerResponse, status: number, body: string | Buffer): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The one place where an error becomes the client's answer, for the express routes (the error
 * middleware) and the events fast path alike: its status and Lago body from `errorResponse`; a 5xx
 * is logged with its stack on `logger` (bound to the request id).
 */
export function sendError(res: ServerResponse, err: unknown, logger: Logger | undefined): void {
  const { status, body } = errorResponse(err);
  if (status >= 500) logger?.error({ err }, "request failed");
  if (!res.headersSent) writeJson(res, status, JSON.stringify(body));
}
