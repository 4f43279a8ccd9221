import type { IncomingMessage, Server } from "node:http";
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from "@opentelemetry/api";

/**
 * Tracing as the rest of the code sees it: through `@opentelemetry/api` only (a no-op without an
 * SDK). The SDK is loaded by `@billing/telemetry/register`, first thing in each main.ts, only when
 * an OTLP endpoint is configured; until then every helper here returns at its first line.
 */

/** The span attribute (and baggage entry) that carries the request id. */
export const REQUEST_ID_ATTRIBUTE = "request.id";
const REQUEST_ID_BAGGAGE = "request.id";

/** What the SDK module hands over once started (nothing of it exists while tracing is off). */
export interface StartedTracing {
  shutdown(): Promise<void>;
  /** Whether a context is not to be traced (suppressed; or, in the gateway, outside any span: an ingestion request sampled out). */
  suppressed(ctx: Context): boolean;
  /** Whether work arriving without a trace context (a NATS message) may start a trace (OTEL_TRACES_SAMPLER set). */
  tracesArrivalsWithoutContext: boolean;
  /** See `sampleIngestion`. */
  sampleIngestion(server: Server): void;
}

const state: { enabled: boolean; started?: StartedTracing } = { enabled: false };
/** The HTTP server span of each request being served (set by the SDK's http instrumentation). */
const serverSpans = new WeakMap<IncomingMessage, Span>();

/** Whether the SDK was started in this process (`OTEL_EXPORTER_OTLP_ENDPOINT` set). */
export function tracingEnabled(): boolean {
  return state.enabled;
}

/** Called by the SDK module once it has started (never otherwise). */
export function markTracingStarted(started: StartedTracing): void {
  state.enabled = true;
  state.started = started;
}

/** Exports the spans still buffered and stops the SDK; nothing when tracing is off. Never throws. */
export async function shutdownTracing(): Promise<void> {
  await state.started?.shutdown().catch(() => undefined);
}

/**
 * The gateway's HTTP server: a share `TRACE_INGEST_RATIO` (0.01) of its ingestion requests
 * (POST /api/v1/events and /events/batch, thousands a second) is traced, and every one whose
 * caller sent a sampled `traceparent`; the others are served past the http instrumentation, in no
 * context, and start no trace (the gateway starts traces only at the requests it traces). Every
 * other request is traced. Nothing while tracing is off.
 */
export function sampleIngestion(server: Server): void {
  state.started?.sampleIngestion(server);
}

/** Whether a NATS message without a trace context is to be handled in a span (OTEL_TRACES_SAMPLER set). */
export function tracesArrivalsWithoutContext(): boolean {
  return state.started?.tracesArrivalsWithoutContext ?? false;
}

/** The request id the context carries (its baggage), if any. */
export function requestIdOf(ctx: Context): string | undefined {
  return propagation.getBaggage(ctx)?.getEntry(REQUEST_ID_BAGGAGE)?.value;
}

/** The request id of the work in progress (tracing on only). */
export function currentRequestId(): string | undefined {
  return state.enabled ? requestIdOf(context.active()) : undefined;
}

/**
 * Runs the handling of a request (`fn`) with its id: on the active span (the request's server
 * span), and in the context (`carryRequestId`). Tracing off: just `fn()`.
 */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  if (!state.enabled) return fn();
  trace.getSpan(context.active())?.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
  return carryRequestId(requestId, fn);
}

/**
 * Runs `fn` with the request id in the active context: on every span started within
 * (`RequestIdSpanProcessor`), in every log line (the logger's mixin), and in the W3C `baggage`
 * that gRPC calls and NATS messages carry to the next service. Tracing off: just `fn()`.
 */
export function carryRequestId<T>(requestId: string, fn: () => T): T {
  if (!state.enabled) return fn();
  const active = context.active();
  const span = trace.getSpan(active);
  // work that is not recorded (sampled out) needs no request id in its context
  if ((span && !span.isRecording()) || state.started!.suppressed(active) || requestIdOf(active) === requestId)
    return fn();
  const baggage = (propagation.getBaggage(active) ?? propagation.createBaggage()).setEntry(REQUEST_ID_BAGGAGE, {
    value: requestId,
  });
  return context.with(propagation.setBaggage(active, baggage), fn);
}

/** Remembers an incoming request's server span (the http instrumentation's request hook). */
export function rememberServerSpan(req: IncomingMessage, span: Span): void {
  serverSpans.set(req, span);
}

/** Puts the request id on the request's HTTP server span (the gateway, once it knows the id). */
export function tagServerSpan(req: IncomingMessage, requestId: string): void {
  if (state.enabled) serverSpans.get(req)?.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
}

/**
 * What the logger adds to each line while tracing is on: the active span's trace and span ids,
 * and the request id of the context when the logger does not carry one already.
 */
export function traceLogFields(withRequestId: boolean): Record<string, string> {
  const active = context.active();
  const span = trace.getSpan(active)?.spanContext();
  const fields: Record<string, string> = {};
  if (span) {
    fields.trace_id = span.traceId;
    fields.span_id = span.spanId;
  }
  if (withRequestId) {
    const requestId = requestIdOf(active);
    if (requestId) fields.request_id = requestId;
  }
  return fields;
}

/**
 * The RPCs of the ingestion path (thousands of calls a second): the gRPC instrumentation leaves them
 * alone (no span, no wrapper, no context per call, so the MongoDB queries they cause find no parent
 * and are not traced either); `traceOutgoingCall` and `traceIncomingCall` trace one only when the
 * work it carries is sampled — an ingestion request `sampleIngestion` picked, or one whose caller
 * sent a sampled `traceparent`.
 */
export const HOT_RPC_METHODS: readonly string[] = ["IngestHttp"];
const hotMethods = new Set(HOT_RPC_METHODS);

/** `/billing.usage.v1.UsageService/IngestHttp` → its service, its method and the span name the gRPC instrumentation would give it. */
function rpcNames(path: string) {
  const slash = path.lastIndexOf("/");
  return { service: path.slice(1, slash), method: path.slice(slash + 1), span: `grpc.${path.slice(1)}` };
}

const rpcTracer = () => trace.getTracer("@billing/grpc");

/** Ends an RPC's span with the call's outcome (gRPC status code 0 when it succeeded). */
function endRpcSpan(span: Span, error?: { code?: number; message?: string } | null): void {
  span.setAttribute("rpc.grpc.status_code", error?.code ?? 0);
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  span.end();
}

/**
 * A gRPC call about to be made (`path` as `/package.Service/Method`): `call` makes it, sending the
 * headers `setHeader` was given, and calls `end` with its error (or none) when it completes. For a
 * hot method (`HOT_RPC_METHODS`) made while a sampled span is active, the call gets a CLIENT span
 * and carries the trace (`traceparent`, `baggage`); any other call is made as it is (the gRPC
 * instrumentation traces the others).
 */
export function traceOutgoingCall(
  path: string,
  setHeader: (key: string, value: string) => void,
  call: (end: (error?: { code?: number; message?: string } | null) => void) => void,
): void {
  if (!state.enabled) return call(() => undefined);
  const names = rpcNames(path);
  const active = context.active();
  if (!hotMethods.has(names.method) || !trace.getSpan(active)?.isRecording()) return call(() => undefined);
  const span = rpcTracer().startSpan(
    names.span,
    {
      kind: SpanKind.CLIENT,
      attributes: { "rpc.system": "grpc", "rpc.service": names.service, "rpc.method": names.method },
    },
    active,
  );
  const callContext = trace.setSpan(active, span);
  propagation.inject(callContext, undefined, { set: (_carrier, key, value) => setHeader(key, value) });
  context.with(callContext, () => call((error) => endRpcSpan(span, error)));
}

/** Whether a W3C `traceparent` says its trace is sampled (flags bit 0). */
export function sampledTraceparent(traceparent: string | undefined): boolean {
  return !!traceparent && traceparent.length >= 55 && (parseInt(traceparent.slice(53, 55), 16) & 1) === 1;
}

/**
 * A gRPC call being served (`path` as `/package.Service/Method`; `header` reads its metadata):
 * for a hot method (`HOT_RPC_METHODS`) whose caller sent a sampled `traceparent`, `run` runs in a
 * SERVER span continuing the caller's trace (and its baggage: the request id); otherwise `run`
 * runs as it is. `run(false)`: a hot method without a sampled trace, to be run in no context at
 * all (not even one carrying the request id: every promise it made would pay for it).
 */
export function traceIncomingCall<T>(
  path: string,
  header: (key: string) => string | undefined,
  run: (inContext: boolean) => Promise<T>,
): Promise<T> {
  if (!state.enabled) return run(true);
  const names = rpcNames(path);
  if (!hotMethods.has(names.method)) return run(true);
  if (!sampledTraceparent(header("traceparent"))) return run(false);
  const parent = propagation.extract(ROOT_CONTEXT, undefined, {
    get: (_carrier, key) => header(key),
    keys: () => ["traceparent", "tracestate", "baggage"],
  });
  const span = rpcTracer().startSpan(
    names.span,
    {
      kind: SpanKind.SERVER,
      attributes: { "rpc.system": "grpc", "rpc.service": names.service, "rpc.method": names.method },
    },
    parent,
  );
  return context
    .with(trace.setSpan(parent, span), () => run(true))
    .then(
      (result) => {
        endRpcSpan(span);
        return result;
      },
      (err: unknown) => {
        endRpcSpan(span, { code: (err as { code?: number })?.code ?? 2, message: (err as Error)?.message });
        throw err;
      },
    );
}

/** `@opentelemetry/api`, for the libraries that start their own spans (the bus). */
export * as otel from "@opentelemetry/api";
