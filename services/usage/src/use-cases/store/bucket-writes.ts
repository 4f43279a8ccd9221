import { mongo } from "mongoose";
import type { BucketChange } from "../../domain/bucket-plan";
import type { IngestRecord } from "../../domain/stored-event";
import { fieldName } from "../../domain/field-paths";
import { decimal128Text } from "../../domain/partials";
import type { BucketDoc, EventPageDoc } from "../../persistence/collections";

const d128 = (text: string) => mongo.Decimal128.fromString(text);

/**
 * The page of a change: its events' JSON texts joined (never re-serialized), grouped by ingest
 * message as `[[seq, [event, …], [position, …]], …]`, and each message's batch id. The third
 * element (each event's position in its ingest message, added for the invoice audit's replay of
 * pay-in-advance fees) is absent from pages written before it, and from a group whose records
 * do not know their positions; readers take `[seq, events]` and ignore the rest.
 */
export function pageDoc(change: Pick<BucketChange, "events" | "page">): EventPageDoc {
  const batches: Record<string, string> = {};
  let text = "[";
  let group: IngestRecord[] = [];
  const close = () => {
    if (group.length === 0) return;
    const positions = group.every((e) => e.i !== undefined) ? `,[${group.map((e) => e.i).join(",")}]` : "";
    text += `${text === "[" ? "" : ","}[${group[0]!.s},[${group.map((e) => e.raw).join(",")}]${positions}]`;
    group = [];
  };
  for (const e of change.events) {
    if (group.length > 0 && e.s !== group[0]!.s) close();
    if (group.length === 0) batches[e.s] = e.batch;
    group.push(e);
  }
  close();
  return { _id: change.page.id, b: batches, e: `${text}]` };
}

/** A new bucket, inserted whole. */
export function newBucketDoc(change: BucketChange): BucketDoc {
  const tf = change.field === null ? [] : [fieldName(change.field)];
  const doc: BucketDoc = {
    _id: change.bucket.id,
    seq: change.lastSeq,
    h: change.bucket.hour,
    n: change.partial.events,
    f: {},
    tf,
    pg: [change.page.range],
  };
  for (const [property, field] of change.partial.fields) {
    const sum = decimal128Text(field.sum);
    const max = decimal128Text(field.max);
    if (sum === null || max === null) (doc.x ??= {})[fieldName(property)] = true;
    else doc.f[fieldName(property)] = { c: field.count, s: d128(sum), m: d128(max) };
  }
  return doc;
}

/** The update of an existing bucket, to run only while it has still applied `appliedSeq`. */
export function bucketUpdate(
  change: BucketChange,
  appliedSeq: number,
  tracked: readonly string[],
): mongo.AnyBulkWriteOperation<BucketDoc> {
  const inc: Record<string, unknown> = { n: change.partial.events };
  const max: Record<string, unknown> = {};
  const set: Record<string, unknown> = { seq: change.lastSeq };
  // a field the bucket did not track from its start cannot be summed from it
  if (change.field !== null && !tracked.includes(fieldName(change.field))) set[`x.${fieldName(change.field)}`] = true;
  for (const [property, field] of change.partial.fields) {
    const name = fieldName(property);
    const sum = decimal128Text(field.sum);
    const top = decimal128Text(field.max);
    if (sum === null || top === null) {
      set[`x.${name}`] = true;
      continue;
    }
    inc[`f.${name}.c`] = field.count;
    inc[`f.${name}.s`] = d128(sum);
    max[`f.${name}.m`] = d128(top);
  }
  const update: Record<string, unknown> = { $set: set, $inc: inc, $push: { pg: change.page.range } };
  if (Object.keys(max).length > 0) update.$max = max;
  // the paths below a bucket's fields (f.<name>.c) are data, which the driver's update type cannot name
  return {
    updateOne: { filter: { _id: change.bucket.id, seq: appliedSeq }, update },
  } as mongo.AnyBulkWriteOperation<BucketDoc>;
}
