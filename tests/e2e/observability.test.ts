import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKEND_SERVICES, repoRoot, waitFor } from "@billing/testkit";
import { OtlpReceiver, SpanKind, type ReceivedSpan } from "../support/otlp-receiver";
import { startE2E, type E2E } from "../support/platform";
import { advanceClock, awaitReady, openSandbox, type Sandbox } from "../support/sandbox";
import { customer, event, invoicesOf, metric, ok, plan, send, standard, subscribe } from "../support/scenario";

/**
 * Observability end to end: the platform started with tracing on (OTLP/HTTP JSON to a receiver in
 * this process) shows one trace per request across every hop — the gateway, the gRPC services it
 * reaches, and NATS to the consumers — with the request id on every span and in the logs; and
 * every service serves its Prometheus metrics.
 */
const receiver = new OtlpReceiver();
let webhookServer: http.Server;
let webhookHits = 0;
let e2e: E2E;
let sandbox: Sandbox;
const FROZEN = "2024-01-01T00:00:00Z";

beforeAll(async () => {
  await receiver.start();
  webhookServer = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      webhookHits++;
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => webhookServer.listen(0, "127.0.0.1", resolve));
  e2e = await startE2E("observability", {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    // every ingestion request traced (0.01 by default)
    TRACE_INGEST_RATIO: "1",
    // "rpc ok" lines (debug) show that the services' logs carry the trace
    LOG_LEVEL: "debug",
  });
  // fresh durables first replay what the streams hold: wait for them once (as scenario files do)
  await advanceClock((await openSandbox(e2e, "observability warm-up", FROZEN)).as, "2024-01-01T00:01:00Z", 170_000);

  // a sandbox organization (never cached by the gateway: each request asks the customer service)
  // whose customer has a plan with a pay-in-advance storage charge, calls, a wallet and a webhook endpoint
  sandbox = await openSandbox(e2e, "Observability", FROZEN);
  const { as } = sandbox;
  await customer(as, "acme");
  const storage = await metric(as, "storage", { aggregation_type: "sum_agg", field_name: "gb" });
  const calls = await metric(as, "calls");
  await plan(as, "starter", {
    amount_cents: 10_000,
    charges: [standard(storage, "2", { pay_in_advance: true, invoiceable: false }), standard(calls, "0.5")],
  });
  await subscribe(as, "acme", "starter", "sub_1");
  await ok(
    as("POST", "/wallets", {
      wallet: { external_customer_id: "acme", currency: "EUR", rate_amount: "1", granted_credits: "5" },
    }),
  );
  await ok(
    as("POST", "/webhook_endpoints", {
      webhook_endpoint: { webhook_url: `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/hooks` },
    }),
  );
  await send(as, [event("sub_1", "calls", "2024-01-20T00:00:00Z"), event("sub_1", "calls", "2024-01-21T00:00:00Z")]);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
  await receiver.stop();
  webhookServer?.closeAllConnections();
  await new Promise((resolve) => webhookServer?.close(resolve));
});

/** The spans received so far that carry this request id, once `complete` says they are all there (bounded). */
async function spansOf(requestId: string, complete: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const mine = () => receiver.spans.filter((s) => s.attributes["request.id"] === requestId);
  await waitFor(() => complete(mine()), { timeoutMs: 20_000, what: `the spans of ${requestId}` }).catch(
    () => undefined,
  );
  return mine();
}

const rpc =
  (service: string, method: string, kind: number = SpanKind.SERVER) =>
  (s: ReceivedSpan) =>
    s.service === service && s.kind === kind && s.attributes["rpc.method"] === method;
/** The gateway's HTTP server span (the http instrumentation's). */
const httpServer = (s: ReceivedSpan) => s.service === "gateway" && s.kind === SpanKind.SERVER;
const summary = (spans: ReceivedSpan[]) =>
  spans.map((s) => `${s.service} ${s.kind} ${s.name} ${s.spanId}←${s.parentSpanId ?? "root"}`).join("\n");

/** Every hop is in one trace whose root is the gateway's HTTP span, every span of it carries the request id, and its tree holds together. */
function expectOneTrace(requestId: string, spans: ReceivedSpan[]): ReceivedSpan[] {
  const traceIds = new Set(spans.map((s) => s.traceId));
  expect([...traceIds], summary(spans)).toHaveLength(1);
  const trace = receiver.trace([...traceIds][0]!);
  expect(
    trace.filter((s) => s.attributes["request.id"] !== requestId).map((s) => `${s.service} ${s.name}`),
    "spans without the request id",
  ).toEqual([]);
  const ids = new Set(trace.map((s) => s.spanId));
  const roots = trace.filter((s) => !s.parentSpanId);
  expect(
    roots.map((s) => `${s.service} ${s.name}`),
    summary(trace),
  ).toHaveLength(1);
  expect(httpServer(roots[0]!), summary(trace)).toBe(true);
  expect(
    trace.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name),
    "spans whose parent is missing",
  ).toEqual([]);
  return trace;
}

/** The span's parent in the trace. */
const parentOf = (trace: ReceivedSpan[], span: ReceivedSpan) => trace.find((s) => s.spanId === span.parentSpanId);

/** A service's log lines that mention the text. */
function logLines(service: string, text: string): Array<Record<string, unknown>> {
  const prefix = e2e.platform.env.usage.MONGO_DB!.replace(/_usage$/, "");
  const file = readFileSync(join(repoRoot(), ".infra", "logs", prefix, `${service}.log`), "utf8");
  return file
    .split("\n")
    .filter((l) => l.includes(text))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

describe("tracing", () => {
  it("follows POST /events/estimate_fees from the gateway through the customer and usage services", async () => {
    const { as } = sandbox;
    const body = { event: { code: "storage", external_subscription_id: "sub_1", properties: { gb: 3 } } };
    await waitFor(async () => (await as("POST", "/events/estimate_fees", body)).status === 200, {
      timeoutMs: 20_000,
      what: "the usage service's copy of the subscription",
    });

    const requestId = `estimate-${randomUUID()}`;
    const res = await as("POST", "/events/estimate_fees", body, { headers: { "x-request-id": requestId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const hops = [
      httpServer,
      rpc("gateway", "AuthenticateApiKey", SpanKind.CLIENT),
      rpc("customer", "AuthenticateApiKey"),
      rpc("gateway", "EstimateFees", SpanKind.CLIENT),
      rpc("usage", "EstimateFees"),
    ];
    const spans = await spansOf(requestId, (got) => hops.every((hop) => got.some(hop)));
    for (const hop of hops) expect(spans.some(hop), summary(spans)).toBe(true);
    const trace = expectOneTrace(requestId, spans);

    // each service's server span is a child of the gateway's call to it
    for (const [service, method] of [
      ["customer", "AuthenticateApiKey"],
      ["usage", "EstimateFees"],
    ] as const) {
      const server = trace.find(rpc(service, method))!;
      expect(parentOf(trace, server)?.service).toBe("gateway");
      expect(parentOf(trace, server)?.kind).toBe(SpanKind.CLIENT);
    }
    // the usage service's log line of that call carries the request id and the trace id
    const lines = logLines("usage", requestId);
    expect(
      lines.some((l) => l.rpc === "EstimateFees" && l.trace_id === trace[0]!.traceId),
      JSON.stringify(lines),
    ).toBe(true);
  });

  it("follows POST /events/batch from the gateway to the usage service", async () => {
    const requestId = `ingest-${randomUUID()}`;
    const res = await sandbox.as(
      "POST",
      "/events/batch",
      { events: [event("sub_1", "calls", "2024-01-22T00:00:00Z")] },
      { headers: { "x-request-id": requestId } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const root = (await spansOf(requestId, (got) => got.some(httpServer))).find(httpServer);
    expect(root, "the gateway's span of the request").toBeDefined();
    // the IngestHttp call that carried it (requests arriving together share one; it has an id of its own)
    const hops = [rpc("gateway", "IngestHttp", SpanKind.CLIENT), rpc("usage", "IngestHttp")];
    await waitFor(() => hops.every((hop) => receiver.trace(root!.traceId).some(hop)), {
      timeoutMs: 20_000,
      what: "the IngestHttp spans",
    }).catch(() => undefined);
    const trace = receiver.trace(root!.traceId);
    const client = trace.find(hops[0]!);
    const server = trace.find(hops[1]!);
    expect(client && parentOf(trace, client)?.spanId, summary(trace)).toBe(root!.spanId);
    expect(server && parentOf(trace, server)?.spanId, summary(trace)).toBe(client?.spanId);
    expect(server?.attributes["request.id"]).toBe(client?.attributes["request.id"]);
  });

  it("follows a test clock advance through the billing run, and across NATS to the consumers", async () => {
    const { as } = sandbox;
    const requestId = `billing-${randomUUID()}`;
    const started = await as(
      "POST",
      "/test_clock/advance",
      { test_clock: { frozen_time: "2024-02-01T00:30:00Z" } },
      { headers: { "x-request-id": requestId } },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await awaitReady(as, 60_000);
    const invoices = await invoicesOf(as, "acme");
    expect(invoices.map((i) => i.status)).toContain("finalized");

    const finalized = "billing.invoicing.invoice.finalized";
    const published = (s: ReceivedSpan) =>
      s.service === "invoicing" && s.kind === SpanKind.PRODUCER && s.name === `publish ${finalized}`;
    const consumed = (service: string) => (s: ReceivedSpan) =>
      s.service === service && s.kind === SpanKind.CONSUMER && s.name === `process ${finalized}`;
    const hops = [
      httpServer,
      rpc("customer", "AdvanceTestClock"),
      rpc("catalog", "RunDue"),
      rpc("invoicing", "RunDue"),
      rpc("usage", "ChargeUsage"),
      rpc("wallet", "ConsumeCredits"),
      published,
      consumed("payment"),
      consumed("wallet"),
    ];
    const spans = await spansOf(requestId, (got) => hops.every((hop) => got.some(hop)));
    for (const hop of hops) expect(spans.some(hop), summary(spans)).toBe(true);
    const trace = expectOneTrace(requestId, spans);

    // the consumers continue the publisher's span (W3C traceparent in the NATS headers)
    const publish = trace.find(published)!;
    for (const service of ["payment", "wallet"]) {
      for (const span of trace.filter(consumed(service)))
        expect(published(parentOf(trace, span)!), summary(trace)).toBe(true);
    }
    // MongoDB spans are part of it
    expect(
      trace.some((s) => s.attributes["db.system"] === "mongodb" || s.attributes["db.system.name"] === "mongodb"),
      summary(trace),
    ).toBe(true);
    // the invoicing service's log lines of its RunDue carry the request id and the trace id
    const lines = logLines("invoicing", requestId);
    expect(
      lines.some((l) => l.trace_id === publish.traceId),
      JSON.stringify(lines.slice(0, 5)),
    ).toBe(true);
  });
});

/** One sample of a Prometheus text exposition: the value of `name` with (at least) these labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[3] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4]);
  }
  return undefined;
}

describe("metrics", () => {
  const scrape = async (service: string) => {
    // the gateway's too is on its own METRICS_PORT, not on the public port
    const port = Number(e2e.platform.env[service as "usage" | "gateway"].METRICS_PORT);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  it("serves /metrics on every service: RPC latency, consumer lag, outbox backlog, business counters", async () => {
    // a duplicate is refused (422): one refused event
    const { as } = sandbox;
    const once = event("sub_1", "calls", "2024-02-02T00:00:00Z");
    await send(as, [once]);
    expect((await as("POST", "/events", { event: once })).status).toBe(422);

    for (const service of [...BACKEND_SERVICES, "gateway"]) {
      const text = await scrape(service);
      expect(sample(text, "process_cpu_seconds_total"), `${service}: process metrics`).toBeGreaterThan(0);
    }
    const usage = await scrape("usage");
    expect(
      sample(usage, "grpc_server_handling_seconds_count", {
        grpc_service: "billing.usage.v1.UsageService",
        grpc_method: "EstimateFees",
        grpc_code: "OK",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(usage, "grpc_server_handling_seconds_bucket", { grpc_method: "IngestHttp", grpc_code: "OK", le: "+Inf" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(usage, "usage_events_ingested_total")).toBeGreaterThanOrEqual(3);
    expect(sample(usage, "usage_events_refused_total", { status: "422" })).toBeGreaterThanOrEqual(1);
    // the read copies' durable: its lag, sampled
    await waitFor(async () => sample(await scrape("usage"), "nats_consumer_pending_messages") !== undefined, {
      what: "a consumer lag sample",
    });

    const invoicing = await scrape("invoicing");
    expect(
      sample(invoicing, "invoicing_invoices_finalized_total", { invoice_type: "subscription" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(invoicing, "grpc_server_handling_seconds_count", { grpc_method: "RunDue", grpc_code: "OK" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(invoicing, "outbox_pending_events", { store: "invoices" })).toBe(0);

    const wallet = await scrape("wallet");
    expect(sample(wallet, "wallet_debits_total", { kind: "invoiced", outcome: "settled" })).toBeGreaterThanOrEqual(1);
    expect(sample(wallet, "nats_consumer_messages_total", { outcome: "acked" })).toBeGreaterThanOrEqual(1);

    await waitFor(
      async () => (sample(await scrape("payment"), "webhook_deliveries_total", { outcome: "succeeded" }) ?? 0) >= 1,
      { what: "a webhook delivery counted" },
    );
    expect(webhookHits).toBeGreaterThanOrEqual(1);
    const gateway = await scrape("gateway");
    expect(
      sample(gateway, "http_requests_total", { method: "POST", route: "/api/v1/events/batch", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    const customerText = await scrape("customer");
    expect(
      sample(customerText, "grpc_server_handling_seconds_count", {
        grpc_method: "AuthenticateApiKey",
        grpc_code: "OK",
      }),
    ).toBeGreaterThanOrEqual(1);
  });
});
