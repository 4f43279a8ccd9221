import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import { atFrozenTime } from "@billing/clock";
import { AppError } from "@billing/errors";
import type { CustomerClient } from "../clients";
import { ctx } from "../http/context";

interface CacheEntry {
  organizationId: string;
  expiresAt: number;
}

/** Who is calling: the organization, and for a sandbox organization its test clock's time now. */
export interface Caller {
  organizationId: string;
  frozenTime?: Date;
}

const MAX_ENTRIES = 10_000;

/** Authorization header → the caller; throws unauthenticated. */
export type ApiKeyResolver = (authorization: string | undefined, requestId: string) => Promise<Caller>;

/**
 * Bearer API key → organization, asked of the customer service and cached briefly in process
 * (by the key's hash, never the key itself). A sandbox organization is never cached: its clock
 * moves, and each request must run at its time now.
 */
export function apiKeyResolver(customer: CustomerClient, ttlMs: number): ApiKeyResolver {
  const cache = new Map<string, CacheEntry>();
  return async (authorization, requestId) => {
    // Like Lago, take the second token of the header: "Bearer <key>".
    const key = (authorization ?? "").trim().split(/\s+/)[1];
    if (!key) throw AppError.unauthenticated();
    const hash = createHash("sha256").update(key).digest("hex");
    const now = Date.now();
    const entry = cache.get(hash);
    if (entry && entry.expiresAt > now) return { organizationId: entry.organizationId };
    const res = await customer.call("AuthenticateApiKey", { api_key: key }, { requestId });
    if (res.frozen_time) return { organizationId: res.organization_id, frozenTime: new Date(res.frozen_time) };
    if (cache.size >= MAX_ENTRIES) cache.clear();
    if (ttlMs > 0) cache.set(hash, { organizationId: res.organization_id, expiresAt: now + ttlMs });
    return { organizationId: res.organization_id };
  };
}

export function authenticate(customer: CustomerClient, ttlMs: number, resolve = apiKeyResolver(customer, ttlMs)): RequestHandler {
  return async (req, _res, next) => {
    try {
      const c = ctx(req);
      const caller = await resolve(req.get("authorization"), c.requestId);
      c.organizationId = caller.organizationId;
      c.logger = c.logger.child({ organization_id: caller.organizationId });
      // a sandbox organization's request runs at its test clock's time, in every service it reaches
      if (caller.frozenTime) atFrozenTime(caller.frozenTime, () => next());
      else next();
    } catch (err) {
      next(err);
    }
  };
}
