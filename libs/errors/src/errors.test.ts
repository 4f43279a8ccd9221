import { Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import {
  AppError,
  ERROR_KINDS,
  fromGrpcError,
  isTransientInfrastructureError,
  toGrpcStatus,
  toHttpError,
} from "./index";

function asServiceError(s: ReturnType<typeof toGrpcStatus>): ServiceError {
  return Object.assign(new Error(s.details), { code: s.code!, details: s.details!, metadata: s.metadata! });
}

describe("error mapping", () => {
  it.each([
    ["bad_request", status.INVALID_ARGUMENT, 400],
    ["unprocessable", status.INVALID_ARGUMENT, 422],
    ["unauthenticated", status.UNAUTHENTICATED, 401],
    ["forbidden", status.PERMISSION_DENIED, 403],
    ["not_found", status.NOT_FOUND, 404],
    ["already_exists", status.ALREADY_EXISTS, 422],
    ["failed_precondition", status.FAILED_PRECONDITION, 422],
    ["not_allowed", status.ABORTED, 405],
    ["too_many_requests", status.RESOURCE_EXHAUSTED, 429],
    ["unavailable", status.UNAVAILABLE, 503],
    ["internal", status.INTERNAL, 500],
  ] as const)("maps %s to gRPC %i and HTTP %i", (kind, grpc, http) => {
    expect(ERROR_KINDS[kind].grpc).toBe(grpc);
    expect(ERROR_KINDS[kind].http).toBe(http);
    expect(toHttpError(new AppError(kind, "x")).status).toBe(http);
  });

  it("writes Lago's bodies", () => {
    expect(toHttpError(AppError.notFound("customer")).body).toEqual({
      status: 404,
      error: "Not Found",
      code: "customer_not_found",
    });
    expect(toHttpError(AppError.unauthenticated()).body).toEqual({ status: 401, error: "Unauthorized" });
    expect(toHttpError(AppError.validation({ country: ["not_a_valid_country_code"] })).body).toEqual({
      status: 422,
      error: "Unprocessable Entity",
      code: "validation_errors",
      error_details: { country: ["not_a_valid_country_code"] },
    });
    expect(toHttpError(AppError.badRequest("param is missing or the value is empty: customer")).body).toEqual({
      status: 400,
      error: "BadRequest: param is missing or the value is empty: customer",
    });
    expect(toHttpError(new AppError("bad_request")).body).toEqual({ status: 400, error: "Bad Request" });
  });

  it("hides unknown errors behind a bare 500", () => {
    const { status: httpStatus, body } = toHttpError(new Error("connection string mongodb://secret"));
    expect(httpStatus).toBe(500);
    expect(body).toEqual({ status: 500, error: "Internal Server Error" });
  });

  it("carries an AppError across gRPC unchanged", () => {
    const original = new AppError("unprocessable", "validation_errors", {
      "1": { transaction_id: ["value_already_exist"] },
    });
    const back = fromGrpcError(asServiceError(toGrpcStatus(original)));
    expect(back).toBeInstanceOf(AppError);
    expect([back.kind, back.code, back.details]).toEqual([original.kind, original.code, original.details]);
  });

  it("does not leak internal messages over gRPC", () => {
    const s = toGrpcStatus(new Error("stack and secrets"));
    expect(s.code).toBe(status.INTERNAL);
    expect(s.details).toBe("internal error");
  });

  it("classifies transport errors without metadata by status", () => {
    const err = Object.assign(new Error("x"), {
      code: status.UNAVAILABLE,
      details: "no connection",
      metadata: new Metadata(),
    });
    expect(fromGrpcError(err).kind).toBe("unavailable");
    expect(toHttpError(fromGrpcError(err)).body).toEqual({ status: 503, error: "Service Unavailable" });
  });
});

describe("infrastructure away for a moment", () => {
  it("is told by the database's and the sockets' errors, not by others", () => {
    const named = (name: string, fields: Record<string, unknown> = {}) =>
      Object.assign(new Error("x"), { name, ...fields });
    expect(isTransientInfrastructureError(named("MongoNetworkError"))).toBe(true);
    expect(isTransientInfrastructureError(named("MongoServerError", { code: 10107 }))).toBe(true);
    expect(isTransientInfrastructureError(named("MongoServerError", { code: 11000 }))).toBe(false);
    expect(
      isTransientInfrastructureError(
        named("MongooseError", { message: "Operation `x.find()` buffering timed out after 10000ms" }),
      ),
    ).toBe(true);
    expect(isTransientInfrastructureError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isTransientInfrastructureError(new TypeError("a bug"))).toBe(false);
    expect(isTransientInfrastructureError("text")).toBe(false);
  });
});
