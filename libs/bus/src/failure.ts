import { NatsError } from "nats";
import { AppError, isTransientAppError } from "@billing/errors";

/** Thrown by a handler when the message can never succeed: it is parked (dead-lettered), not redelivered. */
export class PoisonMessage extends Error {}

/**
 * Thrown by a handler to ask for a redelivery later: transient. Its delay is the backoff's base for
 * this message (the consumer's own base when absent), growing with each delivery as for any
 * transient failure. It is an AppError `unavailable`: thrown while serving a gRPC call (the usage
 * service's pay-in-advance pricing), it reaches the caller as a 503, which the caller's consumer
 * also waits out (it used to arrive as an INTERNAL error, of unknown kind).
 */
export class RetryLater extends AppError {
  constructor(message: string, readonly delayMs?: number) {
    super("unavailable", undefined, undefined, message);
    this.name = "RetryLater";
  }
}

/**
 * What a handler's failure says about the message:
 * - `transient`: the world was not ready (a peer away, MongoDB electing a primary, NATS
 *   reconnecting, `RetryLater`): redelivered with backoff for as long as it takes;
 * - `poison`: the message itself can never succeed (`PoisonMessage`: a body its contract refuses);
 * - `unknown`: anything else (a bug, an answer nobody expected): redelivered with backoff, parked
 *   after a generous number of deliveries so that it does not loop forever unseen.
 */
export type FailureKind = "transient" | "poison" | "unknown";

/** The MongoDB driver's (and mongoose's) errors of a connection, a pool or a server selection: the database away for a moment. */
const MONGO_TRANSIENT_NAMES: ReadonlySet<string> = new Set([
  "MongoNetworkError", "MongoNetworkTimeoutError", "MongoServerSelectionError", "MongooseServerSelectionError", "MongoNotConnectedError",
  "MongoTopologyClosedError", "MongoServerClosedError", "MongoPoolClearedError", "PoolClearedOnNetworkError", "MongoWaitQueueTimeoutError",
  "MongoOperationTimeoutError", "MongoStalePrimaryError",
]);

/**
 * MongoDB server codes of a replica set moving (not primary, stepping down, shutting down) or of the
 * network: the driver's retryable read/write codes (HostUnreachable 6, HostNotFound 7,
 * NetworkTimeout 89, ShutdownInProgress 91, PrimarySteppedDown 189, ExceededTimeLimit 262,
 * SocketException 9001, NotWritablePrimary 10107, InterruptedAtShutdown 11600,
 * InterruptedDueToReplStateChange 11602, NotPrimaryNoSecondaryOk 13435, NotPrimaryOrSecondary 13436,
 * ReadConcernMajorityNotAvailableYet 134), WriteConcernFailed 64 and the legacy not-primary 10058.
 */
const MONGO_TRANSIENT_CODES: ReadonlySet<number> = new Set([6, 7, 64, 89, 91, 134, 189, 262, 9001, 10058, 10107, 11600, 11602, 13435, 13436]);

/** Labels the MongoDB server and driver put on errors a retry may cure. */
const MONGO_TRANSIENT_LABELS = ["RetryableWriteError", "TransientTransactionError", "ResetPool", "PoolRequstedRetry"];

/** NATS errors that a retry cannot cure (a malformed subject or payload, credentials, permissions); every other NATS error is the connection's. */
const NATS_PERMANENT_CODES: ReadonlySet<string> = new Set([
  "BAD_AUTHENTICATION", "BAD_CREDS", "BAD_HEADER", "BAD_JSON", "BAD_PAYLOAD", "BAD_SUBJECT", "INVALID_OPTION", "INVALID_PAYLOAD",
  "MAX_PAYLOAD_EXCEEDED", "NOT_FUNC", "SERVER_OPT_NA", "WSS_REQUIRED", "AUTHORIZATION_VIOLATION", "AUTHENTICATION_EXPIRED",
  "PERMISSIONS_VIOLATION", "ACCOUNT_EXPIRED",
]);

/** Node's socket errors: a peer (a payment provider, a webhook receiver) unreachable for a moment. */
const SOCKET_TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT",
]);

interface ErrorFields {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  errorLabels?: unknown;
  cause?: unknown;
}

function isTransientMongo(err: ErrorFields): boolean {
  const name = typeof err.name === "string" ? err.name : "";
  if (MONGO_TRANSIENT_NAMES.has(name)) return true;
  if (name.startsWith("Mongo") && typeof err.code === "number" && MONGO_TRANSIENT_CODES.has(err.code)) return true;
  if (name.startsWith("Mongo") && Array.isArray(err.errorLabels) && err.errorLabels.some((l) => MONGO_TRANSIENT_LABELS.includes(String(l)))) return true;
  // mongoose queues an operation while its connection is down and gives up after bufferTimeoutMS
  return name === "MongooseError" && typeof err.message === "string" && /buffering timed out/i.test(err.message);
}

function isTransientOne(err: unknown): boolean {
  if (err instanceof RetryLater) return true;
  if (isTransientAppError(err)) return true;
  if (err instanceof NatsError) return !NATS_PERMANENT_CODES.has(err.code);
  if (typeof err !== "object" || err === null) return false;
  const fields = err as ErrorFields;
  if (isTransientMongo(fields)) return true;
  return typeof fields.code === "string" && SOCKET_TRANSIENT_CODES.has(fields.code);
}

/** The kind of a handler's failure (see FailureKind); an error's `cause` chain counts too (a transient cause makes a wrapped error transient). */
export function classifyFailure(err: unknown): FailureKind {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof PoisonMessage) return "poison";
    if (isTransientOne(current)) return "transient";
    current = typeof current === "object" ? (current as ErrorFields).cause : undefined;
  }
  return "unknown";
}
