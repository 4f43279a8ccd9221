/**
 * The usage service has two notions of time, never mixed:
 *
 * - **business time**, the injected `Clock` (a sandbox organization's frozen test-clock time in
 *   context): what dates events (an event's default timestamp, created_at), estimates and the
 *   `ingested` envelopes;
 * - **real time**, this monotonic clock (milliseconds, `performance.now()`): what bounds memory and
 *   waiting — how long an acknowledged key stays in the dedup window, how long a published message
 *   is kept for storage, whether ingestion is busy (storage yields), how old a cached read of stored
 *   usage is. Business time must not age these: a frozen clock months in the past would empty the
 *   dedup window at its next sweep.
 */
export type RealTime = () => number;

export const realTime: RealTime = () => performance.now();
