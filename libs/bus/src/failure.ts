import { NatsError } from "nats";
import { AppError, isTransientAppError, isTransientInfrastructureError } from "@billing/errors";

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
  constructor(
    message: string,
    readonly delayMs?: number,
  ) {
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

/** NATS errors that a retry cannot cure (a malformed subject or payload, credentials, permissions); every other NATS error is the connection's. */
const NATS_PERMANENT_CODES: ReadonlySet<string> = new Set([
  "BAD_AUTHENTICATION",
  "BAD_CREDS",
  "BAD_HEADER",
  "BAD_JSON",
  "BAD_PAYLOAD",
  "BAD_SUBJECT",
  "INVALID_OPTION",
  "INVALID_PAYLOAD",
  "MAX_PAYLOAD_EXCEEDED",
  "NOT_FUNC",
  "SERVER_OPT_NA",
  "WSS_REQUIRED",
  "AUTHORIZATION_VIOLATION",
  "AUTHENTICATION_EXPIRED",
  "PERMISSIONS_VIOLATION",
  "ACCOUNT_EXPIRED",
]);

interface ErrorFields {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  errorLabels?: unknown;
  cause?: unknown;
}

function isTransientOne(err: unknown): boolean {
  if (err instanceof RetryLater) return true;
  if (isTransientAppError(err)) return true;
  if (err instanceof NatsError) return !NATS_PERMANENT_CODES.has(err.code);
  return isTransientInfrastructureError(err);
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
