import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError } from "@billing/errors";
import { ctx } from "../http/context";
import { sendError } from "../http/error-response";

/** Unknown routes: Lago's 404 resource_not_found. */
export const notFound: RequestHandler = (_req, _res, next) => next(AppError.notFound("resource"));

/** Where an express route's error becomes its response (`sendError`, as on the events fast path). */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => sendError(res, err, ctx(req)?.logger);
