import { duplicateIndexes } from "@billing/mongo";
import type { mongo } from "mongoose";
import type { IngestRecord } from "../../domain/stored-event";
import { eventKey } from "../../domain/usage-event";
import { findByIds, type EventKeyDoc } from "../../persistence/collections";

export interface KeyedRecord {
  key: string;
  record: IngestRecord;
}

/**
 * Stores the unique key of every event of a unit (`_id` = eventKey): the events that are new, or
 * that an earlier attempt of the same ingest message stored (a redelivery after a crash), are
 * kept; a key stored by another message is a true duplicate and is dropped. Inside the unit the
 * first occurrence wins.
 */
export async function storeKeys(
  events: mongo.Collection<EventKeyDoc>,
  records: readonly IngestRecord[],
): Promise<{ kept: KeyedRecord[]; keys: string[] }> {
  const firsts = new Map<string, IngestRecord>();
  for (const record of records) {
    const key = eventKey(record.org, record.sub, record.x);
    if (!firsts.has(key)) firsts.set(key, record);
  }
  // every key of the unit (true duplicates' too) leaves the dedup window once the unit is stored
  const keys = [...firsts.keys()];
  const docs: EventKeyDoc[] = [];
  for (const [key, r] of firsts) docs.push({ _id: key, s: r.s });
  let duplicates: string[] = [];
  if (docs.length > 0) {
    try {
      await events.insertMany(docs, { ordered: false });
    } catch (err) {
      const indexes = duplicateIndexes(err);
      if (!indexes) throw err;
      duplicates = indexes.map((i) => docs[i]!._id);
    }
  }
  if (duplicates.length > 0) {
    for (const stored of await findByIds(events, duplicates, { _id: 1, s: 1 })) {
      if (stored.s !== firsts.get(stored._id)?.s) firsts.delete(stored._id);
    }
  }
  return { kept: [...firsts].map(([key, record]) => ({ key, record })), keys };
}
