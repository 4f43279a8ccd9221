import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { AppError } from "@billing/errors";
import { ctx } from "../http/context";

export interface RateLimitSettings {
  /** Tokens added per second (the sustained rate); 0 turns limiting off. */
  perSecond: number;
  /** The bucket's size (requests accepted at once after a quiet spell); 0 turns limiting off. */
  burst: number;
}

/** A request taken, or refused with the whole seconds to wait before one is accepted again. */
export type Take = { ok: true } | { ok: false; retryAfterS: number };

interface Bucket {
  tokens: number;
  at: number;
}

const OK: Take = { ok: true };

/**
 * One token bucket per organization, in this process: each request takes a token; tokens come back
 * at `perSecond` up to `burst`. Pure: time is given (milliseconds) to every call. At most
 * `maxBuckets` are kept; beyond that full buckets (idle organizations) are forgotten first, which
 * changes nothing for them.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  readonly enabled: boolean;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly maxBuckets = 10_000,
  ) {
    this.enabled = settings.perSecond > 0 && settings.burst > 0;
  }

  take(key: string, nowMs: number): Take {
    if (!this.enabled) return OK;
    const { perSecond, burst } = this.settings;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxBuckets) this.evict(nowMs);
      bucket = { tokens: burst, at: nowMs };
      this.buckets.set(key, bucket);
    } else if (nowMs > bucket.at) {
      bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.at) / 1000) * perSecond);
      bucket.at = nowMs;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return OK;
    }
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(nowMs: number): void {
    const { perSecond, burst } = this.settings;
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((nowMs - b.at) / 1000) * perSecond >= burst) this.buckets.delete(key);
    }
    // still full of busy organizations: the oldest tenth goes (they start again with a full bucket)
    for (const key of this.buckets.keys()) {
      if (this.buckets.size < this.maxBuckets * 0.9) break;
      this.buckets.delete(key);
    }
  }
}

/** A refused request's error (429, Lago's `too_many_requests` body) with its `Retry-After` header set on `res`. */
export function tooManyRequests(res: ServerResponse, retryAfterS: number): AppError {
  res.setHeader("Retry-After", String(retryAfterS));
  return new AppError("too_many_requests", "too_many_requests");
}

/** Express: the authenticated organization's request takes a token, or is answered 429. */
export function rateLimit(buckets: TokenBuckets, now: () => number = Date.now): RequestHandler {
  return (req, res, next) => {
    const organizationId = ctx(req).organizationId;
    if (!buckets.enabled || !organizationId) return next();
    const taken = buckets.take(organizationId, now());
    if (taken.ok) return next();
    next(tooManyRequests(res, taken.retryAfterS));
  };
}
