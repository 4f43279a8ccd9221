import { JSONCodec, type JetStreamClient } from "nats";
import { envelopeSchema, type Envelope } from "./envelope";

const codec = JSONCodec<Envelope>();

/**
 * Publishes an envelope on its subject (its type), with the envelope id as the
 * JetStream message id: a retry within the stream's duplicate window is stored once.
 * Resolves once JetStream has acknowledged the write.
 */
export async function publishEnvelope(js: JetStreamClient, envelope: Envelope): Promise<{ duplicate: boolean; seq: number }> {
  envelopeSchema.parse(envelope);
  const ack = await js.publish(envelope.type, codec.encode(envelope), { msgID: envelope.id });
  return { duplicate: ack.duplicate, seq: ack.seq };
}

export function decodeEnvelope(data: Uint8Array): Envelope {
  return envelopeSchema.parse(codec.decode(data)) as Envelope;
}
