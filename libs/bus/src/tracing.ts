import { headers as natsHeaders, type JsMsg, type MsgHdrs } from "nats";
import { otel, tracesArrivalsWithoutContext, tracingEnabled } from "@billing/telemetry";
import type { Envelope } from "./envelope";

/**
 * Traces across NATS: a publish is a PRODUCER span whose context (W3C `traceparent`, and the
 * `baggage` with the request id) travels in the message's headers; a consumer continues that
 * trace in a CONSUMER span around its handler. Used only while tracing is on.
 */
const tracer = () => otel.trace.getTracer("@billing/bus");

const setter: otel.TextMapSetter<MsgHdrs> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: otel.TextMapGetter<MsgHdrs | undefined> = {
  get: (carrier, key) => carrier?.get(key) || undefined,
  keys: (carrier) => carrier?.keys() ?? [],
};

const attributes = (envelope: Envelope) => ({
  "messaging.system": "nats",
  "messaging.destination.name": envelope.type,
  "messaging.message.id": envelope.id,
  "billing.organization_id": envelope.organization_id,
});

/** Runs a publish in a producer span; `publish` gets the headers that carry the span's context. */
export async function tracedPublish<T>(envelope: Envelope, publish: (headers: MsgHdrs) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(
    `publish ${envelope.type}`,
    { kind: otel.SpanKind.PRODUCER, attributes: attributes(envelope) },
    async (span) => {
      try {
        const headers = natsHeaders();
        otel.propagation.inject(otel.context.active(), headers, setter);
        return await publish(headers);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: otel.SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * Whether a message's handling is traced: tracing on, and the message carries a trace context
 * (an untraced message — the usage service's `event.ingested`, an event the outbox relay
 * republished — starts no trace unless OTEL_TRACES_SAMPLER says otherwise).
 */
export function traced(msg: JsMsg): boolean {
  return tracingEnabled() && (msg.headers?.has("traceparent") === true || tracesArrivalsWithoutContext());
}

/**
 * Runs a consumer's handling of a message in a consumer span, child of the publisher's (from the
 * message's headers; a message without them — published untraced, or republished by the outbox
 * relay — is not traced unless OTEL_TRACES_SAMPLER says otherwise). `handle` answers the
 * handler's error, if any: the span records it.
 */
export async function tracedHandling(
  msg: JsMsg,
  envelope: Envelope,
  durable: string,
  handle: () => Promise<unknown>,
): Promise<void> {
  const parent = otel.propagation.extract(otel.ROOT_CONTEXT, msg.headers, getter);
  const span = tracer().startSpan(
    `process ${envelope.type}`,
    {
      kind: otel.SpanKind.CONSUMER,
      attributes: {
        ...attributes(envelope),
        "messaging.consumer.group.name": durable,
        "messaging.nats.stream_sequence": msg.seq,
        "messaging.nats.delivery_count": msg.info.deliveryCount,
      },
    },
    parent,
  );
  try {
    const failure = await otel.context.with(otel.trace.setSpan(parent, span), handle);
    if (failure) {
      span.recordException(failure as Error);
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: String((failure as Error)?.message ?? failure) });
    }
  } finally {
    span.end();
  }
}

export { tracingEnabled };
