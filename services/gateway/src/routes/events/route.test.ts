import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@billing/errors";
import { silentLogger } from "@billing/logger";
import type { UsageClient } from "../../clients";
import { createMetrics } from "../../middleware/metrics";
import { TokenBuckets } from "../../middleware/rate-limit";
import { eventsRoute } from "./route";

const KEY = "Bearer good";

/** The fast path in front of a stand-in for express, with a usage service that answers every ingest request 200 with its body. */
async function serve(options: { bodyLimit?: string; limits?: TokenBuckets } = {}) {
  const metrics = createMetrics();
  const sent: Array<{ organization_id: string; batch: boolean; body: string }> = [];
  const usage = {
    call: async (
      _method: string,
      request: { requests: Array<{ organization_id: string; batch: boolean; body: Buffer }> },
    ) => {
      sent.push(
        ...request.requests.map((r) => ({
          organization_id: r.organization_id,
          batch: r.batch,
          body: r.body.toString(),
        })),
      );
      return { answers: request.requests.map((r) => ({ status: 200, body: r.body })) };
    },
  } as unknown as UsageClient;
  const events = eventsRoute({
    usage,
    resolveApiKey: async (authorization) => {
      if (authorization !== KEY) throw AppError.unauthenticated();
      return { organizationId: "org_1" };
    },
    bodyLimit: options.bodyLimit ?? "1mb",
    logger: silentLogger,
    metrics,
    maxCalls: 2,
    limits: options.limits,
  });
  const server = createServer((req, res) => {
    if (!events(req, res)) res.writeHead(299).end("express");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, sent, metrics };
}

const servers: Server[] = [];
afterEach(() => {
  servers.splice(0).forEach((s) => s.close());
});

describe("the events fast path", () => {
  it("passes an authenticated body through to the usage service and writes its answer", async () => {
    const { url, sent } = await serve();
    const res = await fetch(`${url}/api/v1/events/batch?x=1`, {
      method: "POST",
      headers: { authorization: KEY },
      body: '{"events":[]}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.text()).toBe('{"events":[]}');
    expect(sent).toEqual([{ organization_id: "org_1", batch: true, body: '{"events":[]}' }]);
  });

  it("answers errors in Lago's bodies, as the express routes do (401, 413)", async () => {
    const { url } = await serve({ bodyLimit: "10b" });
    const unauthorized = await fetch(`${url}/api/v1/events`, { method: "POST", body: "{}" });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ status: 401, error: "Unauthorized" });
    const tooLarge = await fetch(`${url}/api/v1/events`, {
      method: "POST",
      headers: { authorization: KEY },
      body: "x".repeat(11),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ status: 413, error: "Payload Too Large" });
  });

  it("keeps a sane X-Request-Id, replaces another, and counts the request under its route", async () => {
    const { url, metrics } = await serve();
    const kept = await fetch(`${url}/api/v1/events`, {
      method: "POST",
      headers: { "x-request-id": "req-42" },
      body: "{}",
    });
    expect(kept.headers.get("x-request-id")).toBe("req-42");
    const replaced = await fetch(`${url}/api/v1/events`, {
      method: "POST",
      headers: { "x-request-id": "bad id!" },
      body: "{}",
    });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const counted = await metrics.registry.getSingleMetricAsString("http_requests_total");
    expect(counted).toContain('http_requests_total{method="POST",route="/api/v1/events",status="401"} 2');
  });

  it("limits estimates by the organization's rate (429, Retry-After), never events", async () => {
    const { url } = await serve({ limits: new TokenBuckets({ perSecond: 0.01, burst: 1 }) });
    const estimate = () =>
      fetch(`${url}/api/v1/events/estimate_fees`, { method: "POST", headers: { authorization: KEY }, body: "{}" });
    expect((await estimate()).status).not.toBe(429);
    const refused = await estimate();
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "100"]);
    expect(await refused.json()).toEqual({ status: 429, error: "Too Many Requests", code: "too_many_requests" });
    for (let i = 0; i < 5; i++) {
      expect(
        (await fetch(`${url}/api/v1/events`, { method: "POST", headers: { authorization: KEY }, body: "{}" })).status,
      ).toBe(200);
    }
  });

  it("leaves every other request to express", async () => {
    const { url } = await serve();
    expect((await fetch(`${url}/api/v1/events`)).status).toBe(299);
    expect((await fetch(`${url}/api/v1/customers`, { method: "POST", body: "{}" })).status).toBe(299);
  });
});
