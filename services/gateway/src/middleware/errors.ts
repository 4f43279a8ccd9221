import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError } from "@billing/errors";
import { ctx } from "../http/context";
import { errorResponse } from "../http/error-response";

/** Unknown routes: Lago's 404 resource_not_found. */
export const notFound: RequestHandler = (_req, _res, next) => next(AppError.notFound("resource"));

/** Where an express route's error becomes its response (the body comes from `errorResponse`). */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const { status, body } = errorResponse(err);
  if (status >= 500) ctx(req)?.logger.error({ err }, "request failed");
  if (res.headersSent) return;
  res.status(status).json(body);
};
