import type { Connection, mongo } from "mongoose";
import { readByIds } from "@billing/mongo";

/**
 * The usage database, through the driver's collections (no mongoose documents on the hot paths).
 * Every read is by `_id`: on the MongoDB test server only `_id` lookups use an index.
 */

/**
 * One per stored event: its unique key (the unique index "where events are stored") and the
 * ingest message that stored it. The event itself is in its bucket's page.
 */
export interface EventKeyDoc {
  _id: string;
  /** stream sequence of the ingest message that stored it */
  s: number;
}

/** The events of one bucket from ingest messages first..last, as JSON text (PageEvent[]). */
export interface EventPageDoc {
  _id: string;
  /** stream sequence → batch id */
  b: Record<string, string>;
  e: string;
}

/** Per numeric property: count, exact sum, maximum. */
export interface FieldDoc {
  c: number;
  s: mongo.Decimal128;
  m: mongo.Decimal128;
}

/** One hour of one series: partials and the pages holding its events. */
export interface BucketDoc {
  _id: string;
  /** last ingest message applied (buckets are updated in stream order) */
  seq: number;
  h: number;
  n: number;
  f: Record<string, FieldDoc>;
  /** the fields whose partials this bucket keeps (its metric's field when it was created) */
  tf: string[];
  /** fields whose partials are incomplete (beyond Decimal128, or tracked late): read the events */
  x?: Record<string, true>;
  /** pages, as "first-last" */
  pg: string[];
}

/** The hours of one month of a series that have a bucket. */
export interface SeriesDoc {
  _id: string;
  hours: number[];
}

export interface CursorDoc {
  _id: string;
  seq: number;
}

export function usageCollections(connection: Connection) {
  const db = connection.db;
  if (!db) throw new Error("the usage database is not connected");
  return {
    events: db.collection<EventKeyDoc>("events"),
    pages: db.collection<EventPageDoc>("event_pages"),
    buckets: db.collection<BucketDoc>("event_buckets"),
    series: db.collection<SeriesDoc>("event_series"),
    cursors: db.collection<CursorDoc>("ingest_cursors"),
  };
}

export type UsageCollections = ReturnType<typeof usageCollections>;

/**
 * Creates the collections up front: the test server's H2 backend can fail two concurrent first
 * writes to a collection that does not exist yet ("already existed in system.namespaces").
 */
export async function createCollections(connection: Connection): Promise<void> {
  const db = connection.db!;
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of [
    "events",
    "event_pages",
    "event_buckets",
    "event_series",
    "ingest_cursors",
    "advance_buckets",
    "advance_answers",
  ]) {
    if (!existing.has(name))
      await db.createCollection(name).catch((err: { code?: number }) => {
        if (err?.code !== 48) throw err; // NamespaceExists: created meanwhile
      });
  }
}

/** `_id $in`, in chunks (@billing/mongo's readByIds: fast on the test server too). */
export function findByIds<T extends { _id: string }>(
  collection: mongo.Collection<T>,
  ids: readonly string[],
  projection?: Record<string, 0 | 1>,
): Promise<T[]> {
  return readByIds(
    ids,
    (chunk) =>
      collection
        .find({ _id: { $in: chunk } } as unknown as mongo.Filter<T>, projection ? { projection } : {})
        .toArray() as Promise<T[]>,
  );
}
