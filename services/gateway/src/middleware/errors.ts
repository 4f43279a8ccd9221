import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError, toHttpError } from "@billing/errors";
import { ctx } from "../http/context";

/** Unknown routes: Lago's 404 resource_not_found. */
export const notFound: RequestHandler = (_req, _res, next) => next(AppError.notFound("resource"));

/** Body-parser failures in Lago's words. */
function fromBodyParser(err: { type?: string; status?: number }): AppError | { status: number; error: string } | undefined {
  switch (err.type) {
    case "entity.parse.failed":
      return new AppError("bad_request"); // {"status":400,"error":"Bad Request"}, as Lago's exception app answers
    case "entity.too.large":
      return { status: 413, error: "Payload Too Large" };
    case "encoding.unsupported":
    case "charset.unsupported":
      return { status: 415, error: "Unsupported Media Type" };
    case "request.aborted":
      return { status: 400, error: "Bad Request" };
    default:
      return undefined;
  }
}

/** The one place where an error becomes an HTTP response. No internal text reaches the client. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const parsed = fromBodyParser(err);
  if (parsed && !(parsed instanceof AppError)) {
    res.status(parsed.status).json(parsed);
    return;
  }
  const appError = parsed ?? err;
  const { status, body } = toHttpError(appError);
  if (status >= 500) ctx(req)?.logger.error({ err }, "request failed");
  if (res.headersSent) return;
  res.status(status).json(body);
};
