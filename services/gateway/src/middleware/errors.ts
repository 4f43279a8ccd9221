import type { ErrorRequestHandler, RequestHandler } from "express";
import { ctx } from "../http/context";
import { RouteNotFound, sendError } from "../http/error-response";

/** Unknown routes: 404 route_not_found with the method and path (a missing record is `<resource>_not_found`). */
export const notFound: RequestHandler = (req, _res, next) => next(new RouteNotFound(req.method, req.path));

/** Where an express route's error becomes its response (`sendError`, as on the events fast path). */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => sendError(res, err, ctx(req)?.logger);
