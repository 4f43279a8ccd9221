import type { JetStreamManager } from "nats";
import { ensureStream, type StreamSpec } from "@billing/bus";

/**
 * The usage service's ingest log (not domain events; no other service reads it): accepted usage
 * events wait there, durable, until the usage service has stored them. One subject per
 * deployment, `ingest.usage.<DURABLE_PREFIX>`.
 */
export const INGEST_STREAM: StreamSpec = { name: "BILLING_USAGE_INGEST", subjects: ["ingest.usage.>"] };

export const ingestSubject = (deployment: string) => `ingest.usage.${deployment}`;

/**
 * The ingest stream: file storage, limits retention without age or size limit — a message leaves
 * only when the usage service purges it after storing its events (a full disk refuses publishes,
 * which answers 503, rather than silently dropping acknowledged events). A short duplicate window
 * covers the publisher's retries (msgID = batch id).
 */
export async function ensureIngestStream(jsm: JetStreamManager, replicas = 1): Promise<string> {
  await ensureStream(jsm, INGEST_STREAM, replicas, { duplicateWindowMs: 120_000, maxAgeMs: 0 });
  return INGEST_STREAM.name;
}

/** The last sequence of this deployment's subject in the stream (0 when it has none). */
export async function lastSequence(jsm: JetStreamManager, stream: string, subject: string): Promise<number> {
  try {
    const message = await jsm.streams.getMessage(stream, { last_by_subj: subject });
    return message.seq;
  } catch (err) {
    if (/no message found|not found/i.test(String((err as Error)?.message))) return 0;
    throw err;
  }
}
