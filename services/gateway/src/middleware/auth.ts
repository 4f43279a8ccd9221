import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import proxyaddr from "proxy-addr";
import { atFrozenTime } from "@billing/clock";
import { AppError } from "@billing/errors";
import type { CustomerClient } from "../clients";
import { ctx } from "../http/context";
import type { AuthFailures } from "./auth-failures";
import { tooManyRequests } from "./rate-limit";

interface CacheEntry {
  organizationId: string;
  expiresAt: number;
}

/** Who is calling: the organization, and for a sandbox organization its test clock's time now. */
export interface Caller {
  organizationId: string;
  frozenTime?: Date;
}

/** The request's client as authentication sees it: its address (failures are counted by it) and its response (a 429's `Retry-After`). */
export interface AuthClient {
  address: string;
  res: ServerResponse;
}

const MAX_ENTRIES = 10_000;

/** Authorization header → the caller; throws unauthenticated, or too_many_requests when the client failed too often. */
export type ApiKeyResolver = (
  authorization: string | undefined,
  requestId: string,
  client?: AuthClient,
) => Promise<Caller>;

/** The customer service's answer for an API key (throws unauthenticated for an unknown or revoked one). */
export type AuthenticateApiKey = (
  apiKey: string,
  requestId: string,
) => Promise<{ organization_id: string; frozen_time?: string | null }>;

export const customerAuthenticator =
  (customer: CustomerClient): AuthenticateApiKey =>
  (apiKey, requestId) =>
    customer.call("AuthenticateApiKey", { api_key: apiKey }, { requestId });

export interface ApiKeySettings {
  /** How long a valid key's organization is kept (so how long a revoked key may still be accepted); 0 = not kept. */
  ttlMs: number;
  /** How long a key the customer service refused is refused without asking again; 0 = not kept. */
  missTtlMs: number;
  /** Failed authentications per client address (none counted when absent). */
  failures?: AuthFailures;
}

/**
 * Bearer API key → organization, asked of the customer service and cached briefly in process
 * (by the key's hash, never the key itself): a valid key for `ttlMs`, a refused one for
 * `missTtlMs` (an unknown key repeated costs one call, not one per request). A sandbox
 * organization is never cached: its clock moves, and each request must run at its time now.
 *
 * With `failures`, every failed authentication (an unknown or revoked key; not a missing one) counts against
 * the client's address; past the limit the address is answered 429 (`Retry-After`: the window's
 * end) without a call, except for a key this process has seen valid within the window (a guess
 * never is), which keeps working: clients sharing an address with a guesser are not locked out
 * while they use a key they used before.
 */
export function apiKeyResolver(
  authenticate: AuthenticateApiKey,
  settings: ApiKeySettings,
  now: () => number = Date.now,
): ApiKeyResolver {
  const cache = new Map<string, CacheEntry>();
  const misses = new Map<string, number>();
  /** key hash → when it was last found valid */
  const valid = new Map<string, number>();
  const failures = settings.failures?.enabled ? settings.failures : undefined;
  const validWithin = failures ? failures.settings.windowMs + settings.ttlMs : 0;
  const keep = <V>(map: Map<string, V>, key: string, value: V) => {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, value);
  };
  const refused = (client: AuthClient | undefined) => {
    if (client && failures) failures.fail(client.address, now());
    return AppError.unauthenticated();
  };

  return async (authorization, requestId, client) => {
    // Like Lago, take the second token of the header: "Bearer <key>".
    const key = (authorization ?? "").trim().split(/\s+/)[1];
    // no key at all costs nothing to refuse: not counted
    if (!key) throw AppError.unauthenticated();
    const hash = createHash("sha256").update(key).digest("hex");
    const at = now();
    const entry = cache.get(hash);
    if (entry && entry.expiresAt > at) return { organizationId: entry.organizationId };
    if (client && failures) {
      const waitS = failures.blockedFor(client.address, at);
      if (waitS > 0 && !((valid.get(hash) ?? -Infinity) > at - validWithin)) throw tooManyRequests(client.res, waitS);
    }
    if ((misses.get(hash) ?? 0) > at) throw refused(client);
    let res: Awaited<ReturnType<AuthenticateApiKey>>;
    try {
      res = await authenticate(key, requestId);
    } catch (err) {
      if (!(err instanceof AppError && err.kind === "unauthenticated")) throw err;
      if (settings.missTtlMs > 0) keep(misses, hash, now() + settings.missTtlMs);
      throw refused(client);
    }
    misses.delete(hash);
    if (failures) keep(valid, hash, now());
    if (res.frozen_time) return { organizationId: res.organization_id, frozenTime: new Date(res.frozen_time) };
    if (settings.ttlMs > 0) keep(cache, hash, { organizationId: res.organization_id, expiresAt: at + settings.ttlMs });
    return { organizationId: res.organization_id };
  };
}

/**
 * Where a request comes from: the socket's address, or with `trustProxy` the client address
 * that trusted proxies put in `X-Forwarded-For` (proxy-addr, as express's `trust proxy`): a
 * number of proxy hops to trust, or a comma-separated list of addresses, CIDR ranges and the
 * names `loopback`, `linklocal`, `uniquelocal`; empty trusts none.
 */
export function clientAddressOf(trustProxy: string): (req: IncomingMessage) => string {
  const value = trustProxy.trim();
  const trust =
    value === ""
      ? () => false
      : /^\d+$/.test(value)
        ? (_address: string, hop: number) => hop < Number(value)
        : proxyaddr.compile(
            value
              .split(",")
              .map((part) => part.trim())
              .filter(Boolean),
          );
  return (req) => proxyaddr(req, trust) ?? req.socket.remoteAddress ?? "unknown";
}

/** Express: the request's caller (`resolve`), its client given by `addressOf` (failures are counted per address). */
export function authenticate(resolve: ApiKeyResolver, addressOf?: (req: IncomingMessage) => string): RequestHandler {
  return async (req, res, next) => {
    try {
      const c = ctx(req);
      const caller = await resolve(
        req.get("authorization"),
        c.requestId,
        addressOf ? { address: addressOf(req), res } : undefined,
      );
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
