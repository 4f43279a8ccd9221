import type { RequestHandler } from "express";
import type { Logger } from "@billing/logger";
import { setCtx } from "../http/context";
import { requestIdOf } from "../http/request-id";

/** Gives each request an id (the caller's X-Request-Id when sane) and logs one line when it ends. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdOf(req.get("x-request-id"));
    const log = logger.child({ request_id: requestId });
    setCtx(req, { requestId, logger: log });
    res.setHeader("x-request-id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 100) / 100 }, "request");
    });
    next();
  };
}
