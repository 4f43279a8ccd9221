import { headers, JSONCodec, type JetStreamClient, type MsgHdrs } from "nats";
import { envelopeSchema, type Envelope } from "./envelope";
import { tracedPublish, tracingEnabled } from "./tracing";

const codec = JSONCodec<Envelope>();
const utf8 = new TextEncoder();
const texts = new WeakMap<Envelope, string>();

/**
 * An envelope's JSON text, made once per envelope object (an envelope is never changed once made):
 * what is published, and what a text outbox keeps (textOutboxEntry), share one serialization.
 */
export function envelopeText(envelope: Envelope): string {
  let text = texts.get(envelope);
  if (text === undefined) {
    text = JSON.stringify(envelope);
    texts.set(envelope, text);
  }
  return text;
}

/**
 * The header naming a message's organization (its envelope's organization_id): a consumer can pass
 * over the messages of organizations it has nothing to do for without decoding them (runConsumer's
 * `skip`). Messages published without it are decoded as always.
 */
export const ORGANIZATION_HEADER = "Billing-Organization";

/** Headers naming the organization a message is about (added to `h` when given). */
export function organizationHeaders(organizationId: string, h: MsgHdrs = headers()): MsgHdrs {
  h.set(ORGANIZATION_HEADER, organizationId);
  return h;
}

/**
 * Publishes an envelope on its subject (its type), with the envelope id as the
 * JetStream message id: a retry within the stream's duplicate window is stored once.
 * Resolves once JetStream has acknowledged the write.
 */
export async function publishEnvelope(
  js: JetStreamClient,
  envelope: Envelope,
): Promise<{ duplicate: boolean; seq: number }> {
  envelopeSchema.parse(envelope);
  const data = utf8.encode(envelopeText(envelope));
  // tracing on: the message carries the trace (W3C traceparent and baggage headers) to its consumers
  const ack = tracingEnabled()
    ? await tracedPublish(envelope, (traceHeaders) =>
        js.publish(envelope.type, data, {
          msgID: envelope.id,
          headers: organizationHeaders(envelope.organization_id, traceHeaders),
        }),
      )
    : await js.publish(envelope.type, data, {
        msgID: envelope.id,
        headers: organizationHeaders(envelope.organization_id),
      });
  return { duplicate: ack.duplicate, seq: ack.seq };
}

export function decodeEnvelope(data: Uint8Array): Envelope {
  return envelopeSchema.parse(codec.decode(data)) as Envelope;
}
