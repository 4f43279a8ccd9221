import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import { AppError } from "@billing/errors";
import type { CustomerClient } from "../clients";
import { ctx } from "../http/context";

interface CacheEntry {
  organizationId: string;
  expiresAt: number;
}

const MAX_ENTRIES = 10_000;

/** Authorization header → organization id; throws unauthenticated. */
export type ApiKeyResolver = (authorization: string | undefined, requestId: string) => Promise<string>;

/**
 * Bearer API key → organization, asked of the customer service and cached
 * briefly in process (by the key's hash, never the key itself).
 */
export function apiKeyResolver(customer: CustomerClient, ttlMs: number): ApiKeyResolver {
  const cache = new Map<string, CacheEntry>();
  return async (authorization, requestId) => {
    // Like Lago, take the second token of the header: "Bearer <key>".
    const key = (authorization ?? "").trim().split(/\s+/)[1];
    if (!key) throw AppError.unauthenticated();
    const hash = createHash("sha256").update(key).digest("hex");
    const now = Date.now();
    let entry = cache.get(hash);
    if (!entry || entry.expiresAt <= now) {
      const res = await customer.call("AuthenticateApiKey", { api_key: key }, { requestId });
      entry = { organizationId: res.organization_id, expiresAt: now + ttlMs };
      if (cache.size >= MAX_ENTRIES) cache.clear();
      if (ttlMs > 0) cache.set(hash, entry);
    }
    return entry.organizationId;
  };
}

export function authenticate(customer: CustomerClient, ttlMs: number, resolve = apiKeyResolver(customer, ttlMs)): RequestHandler {
  return async (req, _res, next) => {
    try {
      const c = ctx(req);
      const organizationId = await resolve(req.get("authorization"), c.requestId);
      c.organizationId = organizationId;
      c.logger = c.logger.child({ organization_id: organizationId });
      next();
    } catch (err) {
      next(err);
    }
  };
}
