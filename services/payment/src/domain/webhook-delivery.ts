/** One delivery of one event to one endpoint, as stored before its first attempt. */
export interface WebhookDelivery {
  id: string;
  organization_id: string;
  endpoint_id: string;
  /** the endpoint's URL when the delivery was made */
  endpoint: string;
  webhook_type: string;
  object_type: string;
  object_id: string | null;
  /** deliveries of one object to one endpoint are sent in this order (the event's stream sequence) */
  order_key: string;
  seq: number;
  /** the exact body sent on every attempt */
  payload: string;
  status: "pending" | "succeeded" | "failed";
  /** attempts made */
  retries: number;
  http_status: number | null;
  response: string | null;
  last_retried_at: Date | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Waits between attempts (before jitter): quick retries for a blip, then hours, so a receiver that
 * is down for a day still gets every delivery. Total ≈ 38.6 h over 12 attempts (at least 30.9 h
whatever the jitter); the last failure
 * marks the delivery `failed` (it can still be replayed with POST /webhooks/{id}/retry).
 */
export const RETRY_DELAYS_S = [5, 30, 120, 300, 1800, 3600, 7200, 18_000, 36_000, 36_000, 36_000] as const;

/**
 * The wait before attempt `attempt + 1` after `attempt` failed ones, with ±20 % jitter so that
 * deliveries failed together do not come back together; null when no attempt is left. `scale`
 * shortens the whole schedule (tests).
 */
export function retryDelayMs(attempt: number, scale = 1, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_S[attempt - 1];
  if (base === undefined) return null;
  return Math.max(1, Math.round(base * 1000 * scale * (0.8 + 0.4 * random())));
}

/** What a receiver answered, kept short in the delivery log. */
export const responseExcerpt = (body: string) => (body.length > 1000 ? `${body.slice(0, 1000)}…` : body);
