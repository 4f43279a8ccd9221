import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import { AppError } from "@billing/errors";
import type { RpcClient } from "@billing/grpc";
import { ctx } from "../http/context";

interface CacheEntry {
  organizationId: string;
  expiresAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Bearer API key → organization, asked of the customer service and cached
 * briefly in process (by the key's hash, never the key itself).
 */
export function authenticate(customer: RpcClient, ttlMs: number): RequestHandler {
  const cache = new Map<string, CacheEntry>();
  return async (req, _res, next) => {
    try {
      // Like Lago, take the second token of the header: "Bearer <key>".
      const key = (req.get("authorization") ?? "").trim().split(/\s+/)[1];
      if (!key) throw AppError.unauthenticated();
      const hash = createHash("sha256").update(key).digest("hex");
      const now = Date.now();
      let entry = cache.get(hash);
      if (!entry || entry.expiresAt <= now) {
        const res = await customer.call<{ organization_id: string }>(
          "AuthenticateApiKey",
          { api_key: key },
          { requestId: ctx(req).requestId },
        );
        entry = { organizationId: res.organization_id, expiresAt: now + ttlMs };
        if (cache.size >= MAX_ENTRIES) cache.clear();
        if (ttlMs > 0) cache.set(hash, entry);
      }
      const c = ctx(req);
      c.organizationId = entry.organizationId;
      c.logger = c.logger.child({ organization_id: entry.organizationId });
      next();
    } catch (err) {
      next(err);
    }
  };
}
