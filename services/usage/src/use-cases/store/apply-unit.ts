import type { Bus } from "@billing/bus";
import type { Clock } from "@billing/clock";
import type { IngestRecord } from "../../domain/stored-event";
import type { UsageCollections } from "../../persistence/collections";
import { applyBuckets, type FieldOf } from "./apply-buckets";
import { publishIngested } from "../../events/ingested-envelopes";
import { storeKeys } from "./store-keys";

export interface StoreDeps {
  collections: UsageCollections;
  bus: Bus;
  /** Business time: the `ingested` envelopes' occurred_at. */
  clock: Clock;
  /** The property a series' metric aggregates (partials are kept for it only). */
  fieldOf: FieldOf;
  /** Called with the keys of every event of the unit once it is stored (Bloom filter, window). */
  onStored(keys: string[]): void;
}

/**
 * Stores one unit (consecutive ingest messages, in stream order): unique keys, pages and bucket
 * partials, then the `ingested` events. Every step is idempotent, so a unit cut differently after
 * a crash stores each event once.
 */
export async function applyUnit(deps: StoreDeps, records: readonly IngestRecord[], lastSeq: number): Promise<number> {
  const { kept, keys } = await storeKeys(deps.collections.events, records);
  const stored = kept.map((k) => k.record);
  await applyBuckets(deps.collections, stored, lastSeq, deps.fieldOf);
  await publishIngested(deps.bus, stored, deps.clock.now());
  deps.onStored(keys);
  return stored.length;
}
