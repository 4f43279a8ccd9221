import { status as GrpcStatus } from "@grpc/grpc-js";

/**
 * Every failure the platform reports is one of these kinds. This table is the
 * single place where a kind meets its gRPC status and its HTTP status.
 */
export const ERROR_KINDS = {
  bad_request: { grpc: GrpcStatus.INVALID_ARGUMENT, http: 400, text: "Bad Request" },
  unprocessable: { grpc: GrpcStatus.INVALID_ARGUMENT, http: 422, text: "Unprocessable Entity" },
  unauthenticated: { grpc: GrpcStatus.UNAUTHENTICATED, http: 401, text: "Unauthorized" },
  forbidden: { grpc: GrpcStatus.PERMISSION_DENIED, http: 403, text: "Forbidden" },
  not_found: { grpc: GrpcStatus.NOT_FOUND, http: 404, text: "Not Found" },
  already_exists: { grpc: GrpcStatus.ALREADY_EXISTS, http: 422, text: "Unprocessable Entity" },
  failed_precondition: { grpc: GrpcStatus.FAILED_PRECONDITION, http: 422, text: "Unprocessable Entity" },
  not_allowed: { grpc: GrpcStatus.ABORTED, http: 405, text: "Method Not Allowed" },
  too_many_requests: { grpc: GrpcStatus.RESOURCE_EXHAUSTED, http: 429, text: "Too Many Requests" },
  unavailable: { grpc: GrpcStatus.UNAVAILABLE, http: 503, text: "Service Unavailable" },
  timeout: { grpc: GrpcStatus.DEADLINE_EXCEEDED, http: 504, text: "Gateway Timeout" },
  internal: { grpc: GrpcStatus.INTERNAL, http: 500, text: "Internal Server Error" },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** For a gRPC status that arrives without our metadata (a foreign or transport error). */
const KIND_OF_GRPC_STATUS: Partial<Record<GrpcStatus, ErrorKind>> = {
  [GrpcStatus.INVALID_ARGUMENT]: "unprocessable",
  [GrpcStatus.UNAUTHENTICATED]: "unauthenticated",
  [GrpcStatus.PERMISSION_DENIED]: "forbidden",
  [GrpcStatus.NOT_FOUND]: "not_found",
  [GrpcStatus.ALREADY_EXISTS]: "already_exists",
  [GrpcStatus.FAILED_PRECONDITION]: "failed_precondition",
  [GrpcStatus.ABORTED]: "not_allowed",
  [GrpcStatus.RESOURCE_EXHAUSTED]: "too_many_requests",
  [GrpcStatus.UNAVAILABLE]: "unavailable",
  [GrpcStatus.DEADLINE_EXCEEDED]: "timeout",
};

export function kindOfGrpcStatus(code: GrpcStatus): ErrorKind {
  return KIND_OF_GRPC_STATUS[code] ?? "internal";
}

export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === "string" && value in ERROR_KINDS;
}
