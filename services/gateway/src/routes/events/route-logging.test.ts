import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "@billing/logger";
import type { UsageClient } from "../../clients";
import { createMetrics } from "../../middleware/metrics";
import { eventsRoute } from "./route";

type Line = { level: string; fields: Record<string, unknown>; msg: string };

/** A logger at `level` that keeps its lines (children share them). */
function recordingLogger(level: "info" | "debug") {
  const lines: Line[] = [];
  const rank = { debug: 20, info: 30, error: 50 } as const;
  const make = (bound: Record<string, unknown>): Logger => {
    const write = (l: keyof typeof rank) => (fields: Record<string, unknown>, msg: string) => {
      if (rank[l] >= rank[level]) lines.push({ level: l, fields: { ...bound, ...fields }, msg });
    };
    return {
      isLevelEnabled: (l: keyof typeof rank) => rank[l] >= rank[level],
      debug: write("debug"),
      info: write("info"),
      error: write("error"),
      child: (more: Record<string, unknown>) => make({ ...bound, ...more }),
    } as unknown as Logger;
  };
  return { logger: make({}), lines };
}

const servers: Server[] = [];
afterEach(() => {
  servers.splice(0).forEach((s) => s.close());
});

/** The fast path with a usage service that answers ingest 200 or 422 (a body with "bad"), and counts its calls. */
async function serve(logger: Logger) {
  const calls: string[] = [];
  const usage = {
    call: async (method: string, request: { requests?: Array<{ body: Buffer }> }) => {
      calls.push(method);
      if (method !== "IngestHttp") return { fees: [] };
      return { answers: request.requests!.map((r) => ({ status: r.body.includes("bad") ? 422 : 200, body: r.body })) };
    },
  } as unknown as UsageClient;
  const events = eventsRoute({
    usage,
    resolveApiKey: async () => ({ organizationId: "org_1" }),
    bodyLimit: "1mb",
    logger,
    metrics: createMetrics(),
    maxCalls: 2,
  });
  const server = createServer((req, res) => {
    if (!events(req, res)) res.writeHead(299).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (path: string, body: string, requestId: string) =>
    fetch(`${url}/api/v1${path}`, {
      method: "POST",
      headers: { authorization: "Bearer k", "x-request-id": requestId },
      body,
    });
  return { post, calls };
}

const requestLines = (lines: Line[]) =>
  lines
    .filter((l) => l.msg === "request")
    .map((l) => ({ level: l.level, id: l.fields.request_id, status: l.fields.status }));

describe("the events fast path's request lines", () => {
  it("logs a request answered 4xx or 5xx at info, as express does, and a served one at debug only", async () => {
    const { logger, lines } = recordingLogger("info");
    const { post } = await serve(logger);
    expect((await post("/events", '{"event":{}}', "served")).status).toBe(200);
    expect((await post("/events", '{"event":"bad"}', "refused")).status).toBe(422);
    expect((await post("/events/estimate_fees", "not json", "bad-json")).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the line is written once the answer is
    expect(requestLines(lines)).toEqual([
      { level: "info", id: "refused", status: 422 },
      { level: "info", id: "bad-json", status: 400 },
    ]);

    const debug = recordingLogger("debug");
    const verbose = await serve(debug.logger);
    await verbose.post("/events", '{"event":{}}', "served");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requestLines(debug.lines)).toEqual([{ level: "debug", id: "served", status: 200 }]);
  });

  it("refuses an estimate whose properties nest deeper than 32 levels (422 value_is_too_deep) before calling the usage service, and logs it", async () => {
    const { logger, lines } = recordingLogger("info");
    const { post, calls } = await serve(logger);
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
    const res = await post(
      "/events/estimate_fees",
      `{"event":{"code":"c","external_subscription_id":"s","properties":${nested(4_500)}}}`,
      "deep",
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      status: 422,
      error: "Unprocessable Entity",
      code: "validation_errors",
      error_details: { properties: ["value_is_too_deep"] },
    });
    expect(calls).toEqual([]);
    expect(lines.filter((l) => l.level === "error")).toEqual([]);
    expect(requestLines(lines)).toEqual([{ level: "info", id: "deep", status: 422 }]);
    // 32 levels are priced
    expect(
      (
        await post(
          "/events/estimate_fees",
          `{"event":{"code":"c","external_subscription_id":"s","properties":${nested(32)}}}`,
          "ok",
        )
      ).status,
    ).toBe(200);
    expect(calls).toEqual(["EstimateFees"]);
  });
});
