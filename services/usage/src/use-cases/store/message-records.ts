import type { JetStreamManager } from "nats";
import type { Logger } from "@billing/logger";
import { decodeMessage } from "../../domain/ingest-message";
import type { IngestRecord } from "../../domain/stored-event";
import type { LocalBatches } from "./local-batches";

export interface MessageSource {
  jsm: JetStreamManager;
  stream: string;
  local: LocalBatches;
  logger: Logger;
}

/** The events of ingest message `seq` (batch id from its Nats-Msg-Id header): kept in memory, or read from the stream. */
export async function messageRecords(
  source: MessageSource,
  seq: number,
  batchId: string | undefined,
): Promise<IngestRecord[]> {
  const kept = batchId ? source.local.take(batchId) : undefined;
  const data = kept ?? (await source.jsm.streams.getMessage(source.stream, { seq })).data;
  try {
    return decodeMessage(
      Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8"),
      seq,
      (line, err) => source.logger.error({ err, seq, line }, "undecodable event skipped"),
    ).events;
  } catch (err) {
    source.logger.error({ err, seq }, "undecodable ingest message skipped");
    return [];
  }
}
