import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import { silentLogger } from "@billing/logger";
import type { UsageClient } from "../clients";
import { organizationId } from "../http/context";
import { eventsRoute } from "../routes/events/route";
import { addressKey, AuthFailures } from "./auth-failures";
import { apiKeyResolver, authenticate, clientAddressOf, type AuthenticateApiKey } from "./auth";
import { errorHandler, notFound } from "./errors";
import { createMetrics } from "./metrics";
import { requestContext } from "./request-context";

const GOOD = "sk_good";

/** A stand-in for the customer service's AuthenticateApiKey that counts its calls. */
function customerService() {
  const calls: string[] = [];
  const authenticate: AuthenticateApiKey = async (apiKey) => {
    calls.push(apiKey);
    if (apiKey === GOOD) return { organization_id: "org_1" };
    if (apiKey === "sk_down") throw new AppError("unavailable");
    throw AppError.unauthenticated();
  };
  return { calls, authenticate };
}
const fakeRes = () => {
  const headers: Record<string, string> = {};
  return {
    headers,
    res: {
      setHeader: (name: string, value: string) => void (headers[name] = value),
    } as unknown as import("node:http").ServerResponse,
  };
};

describe("failed authentications per client address", () => {
  it("refuses an address that failed `limit` times until its window ends, with the seconds left", () => {
    const f = new AuthFailures({ limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      expect(f.blockedFor("203.0.113.1", 1000)).toBe(0);
      f.fail("203.0.113.1", 1000);
    }
    expect(f.blockedFor("203.0.113.1", 1000)).toBe(60);
    expect(f.blockedFor("203.0.113.1", 45_500)).toBe(16);
    expect(f.blockedFor("203.0.113.2", 1000)).toBe(0);
    expect(f.blockedFor("203.0.113.1", 61_000)).toBe(0);
    // a new window from the next failure
    f.fail("203.0.113.1", 61_000);
    expect(f.blockedFor("203.0.113.1", 61_000)).toBe(0);
  });

  it("counts an IPv4-mapped address as its IPv4 address, and IPv6 clients by their /64", () => {
    expect(addressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    const f = new AuthFailures({ limit: 2, windowMs: 60_000 });
    f.fail("2001:db8:1:2::1", 0);
    f.fail("2001:db8:1:2::ffff", 0);
    expect(f.blockedFor("2001:db8:1:2:9::9", 0)).toBe(60);
    expect(f.blockedFor("2001:db8:1:3::1", 0)).toBe(0);
  });

  it("is off with a limit of 0, and keeps at most its size of addresses", () => {
    const off = new AuthFailures({ limit: 0, windowMs: 60_000 });
    for (let i = 0; i < 100; i++) off.fail("203.0.113.1", 0);
    expect(off.blockedFor("203.0.113.1", 0)).toBe(0);
    expect(off.size).toBe(0);
    const small = new AuthFailures({ limit: 1, windowMs: 1000 }, 10);
    for (let i = 0; i < 10; i++) small.fail(`203.0.113.${i}`, 0);
    small.fail("198.51.100.1", 5000); // the ended windows go first
    expect(small.size).toBe(1);
    for (let i = 0; i < 20; i++) small.fail(`192.0.2.${i}`, 5000);
    expect(small.size).toBeLessThanOrEqual(10);
  });
});

describe("the API key resolver", () => {
  it("asks the customer service once for a refused key within the miss TTL, then again", async () => {
    let now = 0;
    const customer = customerService();
    const resolve = apiKeyResolver(customer.authenticate, { ttlMs: 30_000, missTtlMs: 5000 }, () => now);
    for (let i = 0; i < 10; i++)
      await expect(resolve("Bearer sk_bad", "r")).rejects.toMatchObject({ kind: "unauthenticated" });
    expect(customer.calls).toEqual(["sk_bad"]);
    now = 5001;
    await expect(resolve("Bearer sk_bad", "r")).rejects.toMatchObject({ kind: "unauthenticated" });
    expect(customer.calls).toEqual(["sk_bad", "sk_bad"]);
    // a valid key is cached as before; a failure of the customer service itself is not remembered as a miss
    await resolve(`Bearer ${GOOD}`, "r");
    await resolve(`Bearer ${GOOD}`, "r");
    await expect(resolve("Bearer sk_down", "r")).rejects.toMatchObject({ kind: "unavailable" });
    await expect(resolve("Bearer sk_down", "r")).rejects.toMatchObject({ kind: "unavailable" });
    expect(customer.calls).toEqual(["sk_bad", "sk_bad", GOOD, "sk_down", "sk_down"]);
  });

  it("asks every time with a miss TTL of 0", async () => {
    const customer = customerService();
    const resolve = apiKeyResolver(customer.authenticate, { ttlMs: 30_000, missTtlMs: 0 });
    for (let i = 0; i < 3; i++)
      await expect(resolve("Bearer sk_bad", "r")).rejects.toMatchObject({ kind: "unauthenticated" });
    expect(customer.calls).toHaveLength(3);
  });

  it("answers too_many_requests past the limit without asking, but keeps a key it saw valid working", async () => {
    let now = 0;
    const customer = customerService();
    const failures = new AuthFailures({ limit: 3, windowMs: 60_000 });
    const resolve = apiKeyResolver(customer.authenticate, { ttlMs: 1000, missTtlMs: 5000, failures }, () => now);
    const from = (address: string) => ({ address, ...fakeRes() });
    const office = from("198.51.100.7");
    await resolve(`Bearer ${GOOD}`, "r", office);
    for (const key of ["sk_a", "sk_b", "sk_c"])
      await expect(resolve(`Bearer ${key}`, "r", office)).rejects.toMatchObject({ kind: "unauthenticated" });
    const guess = from("198.51.100.7");
    await expect(resolve("Bearer sk_d", "r", guess)).rejects.toMatchObject({ kind: "too_many_requests" });
    expect(guess.headers["Retry-After"]).toBe("60");
    expect(customer.calls).toEqual([GOOD, "sk_a", "sk_b", "sk_c"]);
    // the key used before still works from that address, also once its cache entry expired (one call)
    now = 2000;
    await expect(resolve(`Bearer ${GOOD}`, "r", from("198.51.100.7"))).resolves.toEqual({ organizationId: "org_1" });
    expect(customer.calls).toHaveLength(5);
    // other addresses are not concerned; the window's end lets the address try again
    await expect(resolve("Bearer sk_e", "r", from("203.0.113.9"))).rejects.toMatchObject({ kind: "unauthenticated" });
    now = 61_000;
    await expect(resolve("Bearer sk_f", "r", from("198.51.100.7"))).rejects.toMatchObject({ kind: "unauthenticated" });
  });
});

/** The gateway's two ways in (express's authenticate and the events fast path) on one resolver, behind a trusted local proxy. */
describe("invalid keys over HTTP", () => {
  const customer = customerService();
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const resolve = apiKeyResolver(customer.authenticate, {
      ttlMs: 30_000,
      missTtlMs: 5000,
      failures: new AuthFailures({ limit: 5, windowMs: 60_000 }),
    });
    const addressOf = clientAddressOf("loopback");
    const app = express();
    app.use(requestContext(silentLogger));
    const api = express.Router();
    api.use(authenticate(resolve, addressOf));
    api.get("/customers", (req, res) => void res.json({ organization: organizationId(req) }));
    app.use("/api/v1", api);
    app.use(notFound);
    app.use(errorHandler);
    const usage = { call: async () => ({ fees: [] }) } as unknown as UsageClient;
    const events = eventsRoute({
      usage,
      resolveApiKey: resolve,
      addressOf,
      bodyLimit: "1mb",
      logger: silentLogger,
      metrics: createMetrics(),
      maxCalls: 1,
    });
    server = createServer((req, res) => {
      if (!events(req, res)) app(req, res);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const get = (key: string, client: string) =>
    fetch(`${url}/api/v1/customers`, { headers: { Authorization: `Bearer ${key}`, "X-Forwarded-For": client } });
  const estimate = (key: string, client: string) =>
    fetch(`${url}/api/v1/events/estimate_fees`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "X-Forwarded-For": client },
      body: "{}",
    });

  it("answers repeated invalid keys 401 after one call within the miss TTL, then 429 with Retry-After past the limit; a valid key keeps working", async () => {
    const client = "198.51.100.20";
    expect((await get(GOOD, client)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await get("sk_wrong", client);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ status: 401, error: "Unauthorized" });
    }
    expect((await estimate("sk_wrong", client)).status).toBe(401);
    expect((await estimate("sk_other", client)).status).toBe(401);
    expect(customer.calls.filter((k) => k === "sk_wrong")).toHaveLength(1);

    for (const res of [await get("sk_third", client), await estimate("sk_fourth", client)]) {
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toMatch(/^(59|60)$/);
      expect(await res.json()).toEqual({ status: 429, error: "Too Many Requests", code: "too_many_requests" });
    }
    expect(customer.calls).not.toContain("sk_third");
    expect(customer.calls).not.toContain("sk_fourth");

    const valid = await get(GOOD, client);
    expect(valid.status).toBe(200);
    expect(await valid.json()).toEqual({ organization: "org_1" });
    // another client behind the same proxy is counted on its own
    expect((await get("sk_third", "203.0.113.50")).status).toBe(401);
  });
});
