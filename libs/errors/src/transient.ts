import { status as GrpcStatus } from "@grpc/grpc-js";
import { AppError } from "./app-error";

/**
 * gRPC statuses a later attempt may not meet: the peer unreachable or restarting (UNAVAILABLE),
 * out of time (DEADLINE_EXCEEDED), overloaded (RESOURCE_EXHAUSTED), a concurrent change or a
 * transport abort (ABORTED), the call cut off (CANCELLED). Only for a status that arrived without
 * our AppError (`grpcStatus`): a peer's own `not_allowed` also travels as ABORTED and is an answer.
 */
export const TRANSIENT_GRPC_STATUSES: ReadonlySet<number> = new Set([
  GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.RESOURCE_EXHAUSTED, GrpcStatus.ABORTED, GrpcStatus.CANCELLED,
]);

/** The kinds that say "try again later", whoever raised them: 503, 504 and 429. */
const TRANSIENT_KINDS: ReadonlySet<string> = new Set(["unavailable", "timeout", "too_many_requests"]);

/** Whether an AppError says "try again later": a transient kind, or a transport failure with a transient gRPC status. */
export function isTransientAppError(err: unknown): boolean {
  if (!(err instanceof AppError)) return false;
  if (err.grpcStatus !== undefined && TRANSIENT_GRPC_STATUSES.has(err.grpcStatus)) return true;
  return TRANSIENT_KINDS.has(err.kind);
}
