import type { BloomFilter } from "../use-cases/ingest/bloom-filter";
import { findByIds, type UsageCollections } from "./collections";

/** Which of these event keys are stored (one `_id $in` per 100). */
export async function storedAmong(collections: UsageCollections, keys: string[]): Promise<Set<string>> {
  return new Set((await findByIds(collections.events, keys, { _id: 1 })).map((d) => d._id));
}

/** Fills the Bloom filter with every stored key (at start-up, before serving). */
export async function loadStoredKeys(collections: UsageCollections, bloom: BloomFilter): Promise<number> {
  let n = 0;
  for await (const doc of collections.events.find({}, { projection: { _id: 1 }, batchSize: 20_000 })) {
    bloom.add(doc._id);
    n++;
  }
  return n;
}
