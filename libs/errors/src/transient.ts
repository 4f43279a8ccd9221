import { status as GrpcStatus } from "@grpc/grpc-js";
import { AppError } from "./app-error";

/**
 * gRPC statuses a later attempt may not meet: the peer unreachable or restarting (UNAVAILABLE),
 * out of time (DEADLINE_EXCEEDED), overloaded (RESOURCE_EXHAUSTED), a concurrent change or a
 * transport abort (ABORTED), the call cut off (CANCELLED). Only for a status that arrived without
 * our AppError (`grpcStatus`): a peer's own `not_allowed` also travels as ABORTED and is an answer.
 */
export const TRANSIENT_GRPC_STATUSES: ReadonlySet<number> = new Set([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.RESOURCE_EXHAUSTED,
  GrpcStatus.ABORTED,
  GrpcStatus.CANCELLED,
]);

/** The kinds that say "try again later", whoever raised them: 503, 504 and 429. */
const TRANSIENT_KINDS: ReadonlySet<string> = new Set(["unavailable", "timeout", "too_many_requests"]);

/** Whether an AppError says "try again later": a transient kind, or a transport failure with a transient gRPC status. */
export function isTransientAppError(err: unknown): boolean {
  if (!(err instanceof AppError)) return false;
  if (err.grpcStatus !== undefined && TRANSIENT_GRPC_STATUSES.has(err.grpcStatus)) return true;
  return TRANSIENT_KINDS.has(err.kind);
}

/** What a failure's fields may say about it (the MongoDB driver's, node's sockets'). */
interface ErrorFields {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  errorLabels?: unknown;
}

/** The MongoDB driver's (and mongoose's) errors of a connection, a pool or a server selection: the database away for a moment. */
const MONGO_TRANSIENT_NAMES: ReadonlySet<string> = new Set([
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoServerSelectionError",
  "MongooseServerSelectionError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoServerClosedError",
  "MongoPoolClearedError",
  "PoolClearedOnNetworkError",
  "MongoWaitQueueTimeoutError",
  "MongoOperationTimeoutError",
  "MongoStalePrimaryError",
]);

/**
 * MongoDB server codes of a replica set moving (not primary, stepping down, shutting down) or of the
 * network: the driver's retryable read/write codes (HostUnreachable 6, HostNotFound 7,
 * NetworkTimeout 89, ShutdownInProgress 91, PrimarySteppedDown 189, ExceededTimeLimit 262,
 * SocketException 9001, NotWritablePrimary 10107, InterruptedAtShutdown 11600,
 * InterruptedDueToReplStateChange 11602, NotPrimaryNoSecondaryOk 13435, NotPrimaryOrSecondary 13436,
 * ReadConcernMajorityNotAvailableYet 134), WriteConcernFailed 64 and the legacy not-primary 10058.
 */
const MONGO_TRANSIENT_CODES: ReadonlySet<number> = new Set([
  6, 7, 64, 89, 91, 134, 189, 262, 9001, 10058, 10107, 11600, 11602, 13435, 13436,
]);

/** Labels the MongoDB server and driver put on errors a retry may cure. */
const MONGO_TRANSIENT_LABELS = ["RetryableWriteError", "TransientTransactionError", "ResetPool", "PoolRequstedRetry"];

/** Node's socket errors: a peer (a payment provider, a webhook receiver) unreachable for a moment. */
const SOCKET_TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function isTransientMongo(err: ErrorFields): boolean {
  const name = typeof err.name === "string" ? err.name : "";
  if (MONGO_TRANSIENT_NAMES.has(name)) return true;
  if (name.startsWith("Mongo") && typeof err.code === "number" && MONGO_TRANSIENT_CODES.has(err.code)) return true;
  if (
    name.startsWith("Mongo") &&
    Array.isArray(err.errorLabels) &&
    err.errorLabels.some((l) => MONGO_TRANSIENT_LABELS.includes(String(l)))
  )
    return true;
  // mongoose queues an operation while its connection is down and gives up after bufferTimeoutMS
  return name === "MongooseError" && typeof err.message === "string" && /buffering timed out/i.test(err.message);
}

/**
 * Whether an error says that infrastructure is away for a moment: the database (a connection, a
 * pool, a server selection, a replica set moving) or a peer's socket. A retry may meet it back:
 * consumers redeliver such a failure, and a gRPC server answers it UNAVAILABLE (503 at the
 * gateway, a transient failure for a calling consumer) instead of INTERNAL.
 */
export function isTransientInfrastructureError(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const fields = err as ErrorFields;
  if (isTransientMongo(fields)) return true;
  return typeof fields.code === "string" && SOCKET_TRANSIENT_CODES.has(fields.code);
}
