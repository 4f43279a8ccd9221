import { nanos, RetentionPolicy, StorageType, type JetStreamManager } from "nats";
import { IngestStreams } from "@billing/bus";

/**
 * The ingest stream: file storage, limits retention without age or size limit — a message leaves
 * only when the usage service purges it after storing its events (a full disk refuses publishes,
 * which answers 503, rather than silently dropping acknowledged events). A short duplicate window
 * covers the publisher's retries (msgID = batch id).
 */
export async function ensureIngestStream(jsm: JetStreamManager, replicas = 1): Promise<string> {
  const spec = IngestStreams.usage;
  const config = {
    name: spec.name,
    subjects: [...spec.subjects],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    num_replicas: replicas,
    duplicate_window: nanos(120_000),
    max_age: 0,
  };
  try {
    await jsm.streams.info(spec.name);
  } catch (err) {
    if (!/not found/i.test(String((err as Error)?.message))) throw err;
    await jsm.streams.add(config).catch((addErr: Error) => {
      if (!/already in use/i.test(addErr.message)) throw addErr;
    });
  }
  return spec.name;
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
