/**
 * How long a failed message waits before its next delivery: exponential in the number of
 * deliveries so far, from `baseMs` (the first redelivery) doubling each time up to `maxMs`, with
 * jitter so that the messages a peer's outage failed together do not all come back at once.
 *
 * - `equal` (the default): half the exponential delay, plus a random share of the other half;
 *   never less than half the delay, so a failing message cannot hammer its peer.
 * - `full`: a random share of the whole exponential delay (0 up to it).
 */
export interface BackoffPolicy {
  /** The first redelivery's delay (before jitter), in ms. */
  baseMs: number;
  /** The longest delay, in ms: reached after log2(maxMs / baseMs) failures, then kept. */
  maxMs: number;
  jitter?: "equal" | "full";
}

/**
 * The delay before the next delivery of a message delivered `deliveries` times (1 after its first
 * delivery failed): a pure function of its arguments (`random` answers in [0, 1)).
 */
export function backoffDelayMs(deliveries: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const base = Math.max(0, policy.baseMs);
  const max = Math.max(base, policy.maxMs);
  const failures = Math.max(1, Math.floor(deliveries));
  // base × 2^(failures − 1), capped; the exponent is bounded so that the product stays finite
  const exponential = Math.min(max, base * 2 ** Math.min(failures - 1, 52));
  const share = Math.min(Math.max(random(), 0), 1);
  const delay = policy.jitter === "full" ? exponential * share : exponential / 2 + (exponential / 2) * share;
  return Math.round(delay);
}
