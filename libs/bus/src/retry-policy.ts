import { backoffDelayMs } from "./backoff";
import type { Bus } from "./connection";
import type { DeadLetterStore, ParkReason } from "./dead-letters";
import { classifyFailure, RetryLater, type FailureKind } from "./failure";

/** A consumer's own retry settings; what it leaves out comes from its bus's `consumerDefaults`, then the defaults below. */
export interface RetryOptions {
  /** The first redelivery's delay, the base of the exponential backoff (500 ms). */
  retryDelayMs?: number;
  /** The longest delay between two deliveries of a failing message (300 000 ms). */
  maxRetryDelayMs?: number;
  /** Deliveries after which a message failing for an unknown reason is parked (50; transient failures are never parked). */
  parkUnknownAfter?: number;
  /** Where parked messages are written (the bus's `consumerDefaults.deadLetters` when absent). */
  deadLetters?: DeadLetterStore;
}

export const DEFAULT_RETRY_BASE_MS = 500;
export const DEFAULT_RETRY_MAX_MS = 5 * 60 * 1000;
export const DEFAULT_PARK_UNKNOWN_AFTER = 50;

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  parkUnknownAfter: number;
  store: DeadLetterStore | undefined;
}

/** A consumer's settings over its bus's defaults over the library's. */
export function retryPolicyOf(bus: Bus, options: RetryOptions): RetryPolicy {
  const defaults = bus.consumerDefaults ?? {};
  return {
    baseMs: options.retryDelayMs ?? defaults.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    maxMs: options.maxRetryDelayMs ?? defaults.retryMaxMs ?? DEFAULT_RETRY_MAX_MS,
    parkUnknownAfter: Math.max(1, options.parkUnknownAfter ?? defaults.parkUnknownAfter ?? DEFAULT_PARK_UNKNOWN_AFTER),
    store: options.deadLetters ?? defaults.deadLetters,
  };
}

/** What becomes of a message whose handling failed: parked, for a reason, or delivered again after a delay. */
export type FailureDecision = { kind: FailureKind; park: ParkReason } | { kind: FailureKind; retryInMs: number };

/**
 * The decision for a message delivered `deliveries` times whose handler failed with `err` (pure
 * but for `random`, the backoff's jitter): a poison message is parked at once; a transient failure
 * is delivered again with backoff, however many deliveries it took; an unknown one too, until its
 * `parkUnknownAfter`-th delivery, when it is parked. A RetryLater's own delay is the backoff's base.
 */
export function decideOnFailure(
  err: unknown,
  deliveries: number,
  policy: Omit<RetryPolicy, "store">,
  random: () => number = Math.random,
): FailureDecision {
  const kind = classifyFailure(err);
  if (kind === "poison") return { kind, park: "poison" };
  if (kind === "unknown" && deliveries >= policy.parkUnknownAfter)
    return { kind, park: `unknown_error_after_${policy.parkUnknownAfter}` };
  const baseMs = err instanceof RetryLater && err.delayMs !== undefined ? err.delayMs : policy.baseMs;
  return { kind, retryInMs: backoffDelayMs(deliveries, { baseMs, maxMs: policy.maxMs }, random) };
}
