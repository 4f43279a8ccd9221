/**
 * The OpenTelemetry SDK, loaded by `register` only when tracing is configured (nothing here is
 * loaded otherwise). Traces only: spans of the http, express, gRPC and MongoDB instrumentations
 * and of the bus (`@billing/bus`), W3C trace context and baggage propagation, OTLP export in
 * batches. Metrics stay with Prometheus (`/metrics`); logs stay on stdout (with trace ids).
 */
import { EventEmitter } from "node:events";
import type { IncomingMessage, Server } from "node:http";
import { basename, dirname } from "node:path";
import { api, core, NodeSDK, tracing } from "@opentelemetry/sdk-node";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { MongoDBInstrumentation } from "@opentelemetry/instrumentation-mongodb";
import {
  HOT_RPC_METHODS,
  markTracingStarted,
  REQUEST_ID_ATTRIBUTE,
  rememberServerSpan,
  requestIdOf,
  sampledTraceparent,
} from "./tracing";

/** Puts the request id that a span's parent context carries (baggage) on the span, at its start. */
class RequestIdSpanProcessor implements tracing.SpanProcessor {
  onStart(span: tracing.Span, parentContext: api.Context): void {
    const requestId = requestIdOf(parentContext);
    if (requestId) span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The OTLP exporter of `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`: http/protobuf (default), http/json or grpc; each reads its endpoint from the environment. */
function otlpExporter(env: NodeJS.ProcessEnv): tracing.SpanExporter {
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    "http/protobuf"
  ).trim();
  /* eslint-disable @typescript-eslint/no-require-imports -- only the protocol in use is loaded */
  if (protocol === "grpc")
    return new (
      require("@opentelemetry/exporter-trace-otlp-grpc") as typeof import("@opentelemetry/exporter-trace-otlp-grpc")
    ).OTLPTraceExporter();
  if (protocol === "http/json")
    return new (
      require("@opentelemetry/exporter-trace-otlp-http") as typeof import("@opentelemetry/exporter-trace-otlp-http")
    ).OTLPTraceExporter();
  return new (
    require("@opentelemetry/exporter-trace-otlp-proto") as typeof import("@opentelemetry/exporter-trace-otlp-proto")
  ).OTLPTraceExporter();
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** `OTEL_SERVICE_NAME`, else the service's folder (`services/<name>/dist/main.js` → `<name>`). */
function serviceName(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SERVICE_NAME) return undefined; // the SDK's env detector reads it
  const main = require.main?.filename ?? process.argv[1];
  return main ? basename(dirname(dirname(main))) : undefined;
}

/** Incoming requests that are not traced: health checks and metric scrapes. */
const UNTRACED_PATHS = new Set(["/health", "/metrics"]);
/** The ingestion endpoints: thousands of requests a second, traced at `TRACE_INGEST_RATIO` (`sampleIngestion`). */
const INGEST_PATHS = new Set(["/api/v1/events", "/api/v1/events/batch"]);

/** `TRACE_INGEST_RATIO`: the share of ingestion requests traced, 0 to 1 (0.01). */
function ingestRatio(env: NodeJS.ProcessEnv): number {
  const ratio = Number(env.TRACE_INGEST_RATIO ?? 0.01);
  return Number.isFinite(ratio) ? Math.min(Math.max(ratio, 0), 1) : 0.01;
}

const pathOf = (req: IncomingMessage) => {
  const url = req.url ?? "";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
};

/** Whether the request's caller traces it: a W3C `traceparent` header whose flags say sampled. */
const sampledByCaller = (req: IncomingMessage) =>
  sampledTraceparent(typeof req.headers.traceparent === "string" ? req.headers.traceparent : undefined);

/**
 * The MongoDB instrumentation, skipping queries whose parent span is not recording as it skips
 * those without one (`requireParentSpan`): their spans would not be recorded either (the sampler
 * follows the parent), but each would still be started and its statement serialized — for every
 * query of work that arrived untraced (a gRPC call of an untraced caller, a poll of Aggregate).
 */
class RecordedParentMongoDBInstrumentation extends MongoDBInstrumentation {
  constructor() {
    super({ requireParentSpan: true });
    // the instrumentation's own check, narrowed (a method of its JavaScript, not of its typings)
    (this as unknown as { _checkSkipInstrumentation(span: api.Span | undefined): boolean })._checkSkipInstrumentation =
      (span) => !span?.isRecording();
  }
}

/** Set by `sampleIngestion` (the gateway): traces start only at the HTTP requests it serves. */
const roots = { httpOnly: false };

/**
 * `sampleIngestion(server)`: the server's ingestion requests are sampled before the http
 * instrumentation sees them (one whose caller sent a sampled `traceparent` is always traced), at
 * the cheapest point: one left out is served by the plain `emit` — no span, no bound emitters,
 * and no context at all: entering one (even a suppressed one) would make every promise the
 * request creates carry it, which on Node 20's AsyncLocalStorage costs more than everything
 * else tracing does on this path. What such a request causes starts no trace either: from then
 * on this process starts traces only at the HTTP requests it traces (`roots.httpOnly`, read by
 * `PlatformRootSampler`), so its gRPC calls (the API key's lookup) are not recorded, and its
 * IngestHttp call (a hot method, `traceOutgoingCall`) carries no trace unless a traced request
 * shares it.
 */
function ingestionSampler(ratio: number) {
  return (server: Server) => {
    const instrumented = server.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
    const plain = EventEmitter.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
    roots.httpOnly = true;
    server.emit = function emit(this: Server, event: string | symbol, ...args: unknown[]): boolean {
      const req = args[0] as IncomingMessage;
      if (
        event === "request" &&
        req.method === "POST" &&
        INGEST_PATHS.has(pathOf(req)) &&
        !sampledByCaller(req) &&
        Math.random() >= ratio
      ) {
        return plain.call(this, event, ...args);
      }
      return instrumented.call(this, event, ...args);
    } as Server["emit"];
  };
}

/**
 * The default sampler (no `OTEL_TRACES_SAMPLER`): every trace, each span as its parent was; but
 * work that arrives from another process without a trace context starts none — a gRPC call or a
 * NATS message its sender did not trace (an ingestion request sampled out above, the usage
 * service's `event.ingested` announcements, an event the outbox relay republished after a crash);
 * and in the gateway nothing but an HTTP request it traces starts one (`roots.httpOnly`).
 */
class PlatformRootSampler implements tracing.Sampler {
  shouldSample(
    _context: api.Context,
    _traceId: string,
    spanName: string,
    spanKind: api.SpanKind,
  ): tracing.SamplingResult {
    const grpcServer = spanKind === api.SpanKind.SERVER && spanName.startsWith("grpc.");
    const untracedArrival = grpcServer || spanKind === api.SpanKind.CONSUMER;
    // the gateway: a trace starts at an HTTP request it traces, nowhere else (see roots.httpOnly)
    const notHttpRequest = roots.httpOnly && (spanKind !== api.SpanKind.SERVER || grpcServer);
    return {
      decision:
        untracedArrival || notHttpRequest
          ? tracing.SamplingDecision.NOT_RECORD
          : tracing.SamplingDecision.RECORD_AND_SAMPLED,
    };
  }
  toString(): string {
    return "PlatformRootSampler";
  }
}

export function startTracing(env: NodeJS.ProcessEnv = process.env): void {
  const sdk = new NodeSDK({
    serviceName: serviceName(env),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has(pathOf(req)),
        // the only outgoing HTTP is webhooks to customers' endpoints: no trace headers leave for them
        disableOutgoingRequestInstrumentation: true,
        // with outgoing requests untraced, every request seen here is one this process serves
        requestHook: (span, req) => rememberServerSpan(req as IncomingMessage, span),
      }),
      // middleware and handler spans; not one per router the request passes on its way (some twenty)
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.ROUTER] }),
      // the ingestion path's RPCs are traced by @billing/grpc, only when sampled (`HOT_RPC_METHODS`)
      new GrpcInstrumentation({ ignoreGrpcMethods: ["Check", "Watch", ...HOT_RPC_METHODS] }),
      // queries outside any recorded trace (timers, the outbox relay, storage loops, untraced calls) are not traced
      new RecordedParentMongoDBInstrumentation(),
    ],
    spanProcessors: [new RequestIdSpanProcessor(), new tracing.BatchSpanProcessor(otlpExporter(env))],
    // OTEL_TRACES_SAMPLER, when set, replaces it (the SDK reads it)
    ...(env.OTEL_TRACES_SAMPLER
      ? {}
      : { sampler: new tracing.ParentBasedSampler({ root: new PlatformRootSampler() }) }),
    // traces only: metrics are Prometheus', logs go to stdout
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  markTracingStarted({
    shutdown: () => sdk.shutdown(),
    // the gateway's ingestion requests sampled out run outside any span, and must stay context-free
    suppressed: (ctx) => core.isTracingSuppressed(ctx) || (roots.httpOnly && !api.trace.getSpan(ctx)),
    tracesArrivalsWithoutContext: Boolean(env.OTEL_TRACES_SAMPLER),
    sampleIngestion: ingestionSampler(ingestRatio(env)),
  });
}
