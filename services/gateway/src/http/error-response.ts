import { AppError, toHttpError } from "@billing/errors";

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
 * The one function that turns any error into the HTTP status and Lago body the client gets, for
 * the express routes and the events fast path alike. No internal text reaches the client: an
 * unknown error is a bare 500 (the caller logs it under the request id).
 */
export function errorResponse(err: unknown): { status: number; body: object } {
  const known = err instanceof HttpStatus || err instanceof AppError ? err : (err && typeof err === "object" && fromBodyParser(err)) || err;
  if (known instanceof HttpStatus) return { status: known.status, body: { status: known.status, error: known.text } };
  return toHttpError(known);
}
