import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { startE2E, type E2E } from "../support/platform";

let e2e: E2E;

beforeAll(async () => {
  // a tiny limit: 3 requests at once, then one every 10 s
  e2e = await startE2E("rate_limits", { RATE_LIMIT_PER_S: "0.1", RATE_LIMIT_BURST: "3" });
});

afterAll(async () => {
  await e2e?.stop();
});

async function raw(apiKey: string, method: string, path: string, body?: unknown) {
  return fetch(`${e2e.platform.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
}

describe("per-organization rate limits at the gateway", () => {
  it("answers 429 with Retry-After to the organization over its limit; another organization is unaffected", async () => {
    const busy = await e2e.organization("Busy");
    const quiet = await e2e.organization("Quiet");
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await raw(busy.api_key, "GET", "/customers")).status);
    expect(statuses).toEqual([200, 200, 200]);

    const refused = await raw(busy.api_key, "GET", "/customers");
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(await refused.json()).toEqual({ status: 429, error: "Too Many Requests", code: "too_many_requests" });
    // any ordinary route, estimates included
    expect((await raw(busy.api_key, "POST", "/customers", { customer: { external_id: "c" } })).status).toBe(429);
    expect((await raw(busy.api_key, "POST", "/events/estimate_fees", { event: {} })).status).toBe(429);

    const other = api(e2e.platform.baseUrl, quiet.api_key);
    for (let i = 0; i < 3; i++) expect((await other("GET", "/customers")).status).toBe(200);
  });

  it("leaves event ingestion to its own backpressure", async () => {
    const org = await e2e.organization("Ingesting");
    const events = [];
    for (let i = 0; i < 6; i++) {
      const res = await raw(org.api_key, "POST", "/events", {
        event: {
          transaction_id: `tx_${i}`,
          external_subscription_id: "sub_none",
          code: "none",
          timestamp: Math.floor(Date.now() / 1000),
        },
      });
      events.push(res.status);
    }
    expect(events.some((s) => s === 429)).toBe(false);
    const batch = await raw(org.api_key, "POST", "/events/batch", { events: [] });
    expect(batch.status).not.toBe(429);
  });

  it("does not limit what needs no organization (/health) or is refused before it (a bad key)", async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${e2e.platform.baseUrl}/health`)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await raw("nope", "GET", "/customers")).status).toBe(401);
  });
});
