import type { ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { AppError } from "@billing/errors";
import type { Logger } from "@billing/logger";
import { errorResponse, HttpStatus, RouteNotFound, sendError } from "./error-response";

/** A response that records what is written to it. */
function recordingResponse() {
  const written = { status: 0, headers: {} as Record<string, unknown>, body: "" };
  const res = {
    headersSent: false,
    writeHead(status: number, headers: Record<string, unknown>) {
      written.status = status;
      written.headers = headers;
      return res;
    },
    end(body: string) {
      written.body = body;
    },
  };
  return { res: res as unknown as ServerResponse, written };
}

describe("errorResponse", () => {
  it("gives Lago's body for an AppError, a body-parser failure and a bare HTTP status", () => {
    expect(errorResponse(AppError.notFound("customer"))).toEqual({
      status: 404,
      body: { status: 404, error: "Not Found", code: "customer_not_found" },
    });
    expect(errorResponse({ type: "entity.parse.failed" })).toEqual({
      status: 400,
      body: { status: 400, error: "Bad Request" },
    });
    expect(errorResponse({ type: "entity.too.large" })).toEqual({
      status: 413,
      body: { status: 413, error: "Payload Too Large" },
    });
    expect(errorResponse({ type: "charset.unsupported" })).toEqual({
      status: 415,
      body: { status: 415, error: "Unsupported Media Type" },
    });
    expect(errorResponse(new HttpStatus(413, "Payload Too Large"))).toEqual({
      status: 413,
      body: { status: 413, error: "Payload Too Large" },
    });
  });

  it("answers a path parameter the router cannot decode (%ff) 400, Lago's bad request", () => {
    // what express's router throws: decodeURIComponent's URIError, marked 400
    const undecodable = Object.assign(new URIError("Failed to decode param '%ff'"), { status: 400, statusCode: 400 });
    expect(errorResponse(undecodable)).toEqual({
      status: 400,
      body: { status: 400, error: "BadRequest: malformed percent-encoding in the URL path" },
    });
    // a URIError the router did not mark stays an internal error
    expect(errorResponse(new URIError("URI malformed")).status).toBe(500);
  });

  it("tells an unknown route (route_not_found, with its method and path) from a missing record", () => {
    expect(errorResponse(new RouteNotFound("GET", "/api/v1/no_such_route"))).toEqual({
      status: 404,
      body: {
        status: 404,
        error: "Not Found",
        code: "route_not_found",
        message: "No route matches GET /api/v1/no_such_route",
      },
    });
    const long = errorResponse(new RouteNotFound("PUT", `/api/v1/${"a".repeat(10_000)}`)).body.message!;
    expect(long.length).toBeLessThan(300);
    expect(long).toMatch(/^No route matches PUT \/api\/v1\/a+…$/);
  });

  it("never shows an unknown error's text", () => {
    expect(errorResponse(new Error("mongodb://secret refused"))).toEqual({
      status: 500,
      body: { status: 500, error: "Internal Server Error" },
    });
  });
});

describe("sendError", () => {
  it("writes the status and Lago body as JSON with its length, and logs nothing for a 4xx", () => {
    const { res, written } = recordingResponse();
    const logger = { error: vi.fn() } as unknown as Logger;
    sendError(res, AppError.validation({ code: ["value_is_mandatory"] }), logger);
    expect(written.status).toBe(422);
    expect(written.headers).toEqual({
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(written.body),
    });
    expect(JSON.parse(written.body)).toEqual({
      status: 422,
      error: "Unprocessable Entity",
      code: "validation_errors",
      error_details: { code: ["value_is_mandatory"] },
    });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("logs a 5xx with the error itself and answers without its text", () => {
    const { res, written } = recordingResponse();
    const logger = { error: vi.fn() } as unknown as Logger;
    const err = new Error("connection string mongodb://secret");
    sendError(res, err, logger);
    expect(written.body).toBe('{"status":500,"error":"Internal Server Error"}');
    expect(logger.error).toHaveBeenCalledWith({ err }, "request failed");
  });

  it("writes nothing once the headers are out", () => {
    const { res, written } = recordingResponse();
    (res as { headersSent: boolean }).headersSent = true;
    sendError(res, AppError.unauthenticated(), undefined);
    expect(written.status).toBe(0);
  });
});
