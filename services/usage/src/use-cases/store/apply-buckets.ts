import type { mongo } from "mongoose";
import { bucketChange, bucketsOf, type BucketEvents } from "../../domain/bucket-plan";
import { monthOf, seriesMonthId } from "../../domain/buckets";
import type { IngestRecord } from "../../domain/stored-event";
import { findByIds, type BucketDoc, type EventPageDoc, type UsageCollections } from "../../persistence/collections";
import { bucketUpdate, newBucketDoc, pageDoc } from "./bucket-writes";

const MAX_ROUNDS = 5;

/** The property a series' metric aggregates (from the read copies), or null. */
export type FieldOf = (organizationId: string, code: string) => string | null;

async function writePages(pages: mongo.Collection<EventPageDoc>, docs: EventPageDoc[]): Promise<void> {
  if (docs.length === 0) return;
  // a page already there is the same page, written by an earlier attempt
  await pages
    .insertMany(docs, { ordered: false })
    .catch((err: { writeErrors?: { code?: number } | Array<{ code?: number }> }) => {
      // the driver reports one write error alone, several as an array; none: another failure
      const errors = Array.isArray(err?.writeErrors) ? err.writeErrors : [err?.writeErrors ?? {}];
      if (errors.some((w) => w.code !== 11000)) throw err;
    });
}

/**
 * Adds a unit's stored events to their hourly buckets, exactly once: each bucket records the
 * last ingest message it applied (`seq`) and is changed only by a conditional write on that
 * value, with the events of later messages only. Messages are applied in stream order, so
 * `seq ≥ s` means message s is in. Pages are written before the bucket that lists them; a page
 * of a failed attempt stays unlisted and is never read. Partials are kept for the metric's field
 * only (`tf`, fixed when the bucket is created; a field that starts later is marked incomplete).
 */
export async function applyBuckets(
  c: UsageCollections,
  records: Iterable<IngestRecord>,
  unitLastSeq: number,
  fieldOf: FieldOf,
): Promise<void> {
  let pending = [...bucketsOf(records).values()];
  for (let round = 0; pending.length > 0; round++) {
    if (round === MAX_ROUNDS) throw new Error(`buckets kept changing under this unit (${pending.length} left)`);
    const stored = new Map(
      (
        await findByIds(
          c.buckets,
          pending.map((b) => b.id),
          { _id: 1, seq: 1, tf: 1 },
        )
      ).map((d) => [d._id, d]),
    );
    const changes = pending.flatMap((bucket) => {
      const doc = stored.get(bucket.id);
      const applied = doc?.seq ?? 0;
      const change = bucketChange(bucket, applied, unitLastSeq, fieldOf(bucket.series.org, bucket.series.code));
      return change ? [{ change, exists: !!doc, applied, tracked: doc?.tf ?? [] }] : [];
    });
    if (changes.length === 0) return;
    await writePages(
      c.pages,
      changes.map(({ change }) => pageDoc(change)),
    );
    const created = changes.filter((x) => !x.exists);
    if (created.length > 0) {
      const listHours = created.map(({ change: { bucket } }) => ({
        updateOne: {
          filter: { _id: seriesMonthId(bucket.series, monthOf(bucket.hour)) },
          update: { $addToSet: { hours: bucket.hour } },
          upsert: true,
        },
      }));
      await c.series.bulkWrite(listHours, { ordered: false });
    }
    const ops = changes.map(({ change, exists, applied, tracked }): mongo.AnyBulkWriteOperation<BucketDoc> =>
      exists ? bucketUpdate(change, applied, tracked) : { insertOne: { document: newBucketDoc(change) } },
    );
    const done = await c.buckets.bulkWrite(ops, { ordered: false }).then(
      (r) => r.matchedCount + r.insertedCount,
      () => -1,
    );
    if (done === ops.length) return;
    // someone else moved some of these buckets (another replica): read them again
    pending = changes.map(({ change }) => change.bucket as BucketEvents);
  }
}
