import type { ServerResponse } from "node:http";
import { AppError, toHttpError, type HttpErrorBody } from "@billing/errors";
import type { Logger } from "@billing/logger";

/** An HTTP error that is not one of Lago's AppErrors (a body over the limit, an aborted upload). */
export class HttpStatus extends Error {
  constructor(readonly status: number, readonly text: string) {
    super(text);
  }
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
 * Any error → the HTTP status and Lago body the client gets (`libs/errors`' table for AppErrors).
 * No internal text reaches the client: an unknown error is a bare 500.
 */
export function errorResponse(err: unknown): { status: number; body: HttpErrorBody } {
  const known = err instanceof HttpStatus || err instanceof AppError ? err : (err && typeof err === "object" && fromBodyParser(err)) || err;
  if (known instanceof HttpStatus) return { status: known.status, body: { status: known.status, error: known.text } };
  return toHttpError(known);
}

/** A JSON answer written straight to node's response (no framework: the fast path uses it too). */
export function writeJson(res: ServerResponse, status: number, body: string | Buffer): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
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
