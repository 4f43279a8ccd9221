import type { IncomingMessage, Server } from "node:http";
import { context, propagation, trace, type Context, type Span } from "@opentelemetry/api";

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
  /** Whether tracing is suppressed in a context (an ingestion request sampled out). */
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
 * (POST /api/v1/events and /events/batch, thousands a second) is traced; the others are served
 * past the http instrumentation, with tracing suppressed for whatever they cause. Every other
 * request is traced. Nothing while tracing is off.
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
  if ((span && !span.isRecording()) || state.started!.suppressed(active) || requestIdOf(active) === requestId) return fn();
  const baggage = (propagation.getBaggage(active) ?? propagation.createBaggage()).setEntry(REQUEST_ID_BAGGAGE, { value: requestId });
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

/** `@opentelemetry/api`, for the libraries that start their own spans (the bus). */
export * as otel from "@opentelemetry/api";
